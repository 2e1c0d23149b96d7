"""What the benchmark scripts share: where the peers are, and the floor's release build."""
import os, shutil, subprocess, sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PEERS = os.path.normpath(os.path.join(ROOT, "..", "shared", "peers"))


def build_floor():
    """Builds ../shared/peers/floor (release) in a writable copy; returns its products' folder."""
    floor_src = os.path.join(ROOT, ".build-floor", "src")
    if not os.path.exists(os.path.join(floor_src, "Package.swift")):
        shutil.copytree(os.path.join(PEERS, "floor"), floor_src, dirs_exist_ok=True)
        subprocess.run(["chmod", "-R", "u+w", floor_src], check=True)
    print("building the floor (release)…", file=sys.stderr)
    subprocess.run(["swift", "build", "-c", "release"], cwd=floor_src, check=True, capture_output=True)
    return os.path.join(floor_src, ".build", "release")
