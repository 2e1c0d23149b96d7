#if canImport(Glibc)
    import Glibc
#endif

/// The plugin folder: every shared library in it loads at start.
enum PluginFolder {
    /// The `.so` files directly in `folder`, sorted by name, as paths; none when it does not exist.
    static func libraries(in folder: String) -> [String] {
        guard let dir = opendir(folder) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name.hasSuffix(".so") && !name.hasPrefix(".") { names.append(name) }
        }
        return names.sorted().map { folder + "/" + $0 }
    }
}
