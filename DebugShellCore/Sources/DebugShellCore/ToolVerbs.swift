/// A tool's commands and verbs as enums the compiler checks: each case declares itself and
/// `run(_:)` switches over the cases, so a declared verb without behaviour does not compile, and
/// behaviour without a declaration cannot be reached — the built-in commands' model
/// (docs/Plugins.md, "Verbs as an enum").
///
/// ```swift
/// enum Verb: String, ToolVerbs {
///     case show, start
///
///     var declaration: VerbSpec {
///         switch self {
///         case .show: return VerbSpec("show", abstract: "…", examples: […])
///         case .start: return VerbSpec("start", abstract: "…", options: [Watchdog.over], examples: […])
///         }
///     }
/// }
///
/// // in the descriptor
/// CommandSpec("watchdog", abstract: "…", verbs: Verb.declarations, defaultVerb: Verb.show.rawValue)
///
/// // in run(_:)
/// switch try invocation.verb(Verb.self) {
/// case .show: return report()
/// case .start: return try start(invocation)
/// }
/// ```

/// The verbs of one command, as an enum whose raw values are the verbs' names (`""` for an
/// unnamed verb). Each case's ``declaration`` is its ``VerbSpec``, named as the case's raw value.
public protocol ToolVerbs: CaseIterable, RawRepresentable where RawValue == String {
    /// The verb's declaration: its name is the case's raw value.
    var declaration: VerbSpec { get }
}

extension ToolVerbs {
    /// Every verb's declaration, in the enum's order (the order help lists them): a
    /// ``CommandSpec``'s `verbs`.
    @inlinable public static var declarations: [VerbSpec] { allCases.map { $0.declaration } }
}

/// The commands of a tool that has more than one (`layout` and `view`), as an enum whose raw
/// values are the commands' names. Each case's ``declaration`` is its ``CommandSpec`` — usually
/// with `verbs:` the declarations of that command's ``ToolVerbs`` enum.
public protocol ToolCommands: CaseIterable, RawRepresentable where RawValue == String {
    /// The command's declaration: its name is the case's raw value.
    var declaration: CommandSpec { get }
}

extension ToolCommands {
    /// Every command's declaration, in the enum's order: a ``ToolDescriptor``'s `commands`.
    @inlinable public static var declarations: [CommandSpec] { allCases.map { $0.declaration } }
}

extension Invocation {
    /// The verb as the command's enum: `switch try invocation.verb(Verb.self) { … }`.
    ///
    /// The shell hands a command only the verbs it declared (a command typed without a verb
    /// arrives as its default verb), so this throws only for an invocation built by hand, or
    /// when the enum is not the one that declared the command's verbs.
    ///
    /// - Throws: `'fps' has no verb 'launch'`.
    @inlinable public func verb<Verb: ToolVerbs>(_ type: Verb.Type) throws(CommandError) -> Verb {
        guard let verb = Verb(rawValue: self.verb) else {
            throw CommandError("'\(command)' has no verb '\(self.verb)'")
        }
        return verb
    }

    /// The command as the tool's enum: `switch try invocation.command(Command.self) { … }`.
    ///
    /// The shell hands a tool only its own commands, by their canonical names (an alias arrives
    /// as the command it stands for), so this throws only for an invocation built by hand.
    ///
    /// - Throws: `'watch' is not a command of this tool`.
    @inlinable public func command<Command: ToolCommands>(_ type: Command.Type) throws(CommandError) -> Command {
        guard let command = Command(rawValue: self.command) else {
            throw CommandError("'\(self.command)' is not a command of this tool")
        }
        return command
    }
}
