import DebugShellCore
import FPSMeterTool
import LayoutSettleTool
import TimerInspectorTool

/// The one list of tools that ship with debugsh, in registration order.
///
/// Adding a tool is a folder under Plugins/, one target in Package.swift and one entry here;
/// a test checks that every folder under Plugins/ is registered.
public enum BuiltInTools {
    /// Every built-in tool, in the order their status lines stand.
    public static var all: [any DebugTool.Type] {
        [FPSMeter.self, LayoutSettleChecker.self, TimerInspector.self]
    }
}
