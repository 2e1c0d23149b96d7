@preconcurrency import CReadline
import DebugShell
import DebugShellCore
import DebugShellInterpreter

#if canImport(Glibc)
    import Glibc
#endif

/// What readline handed back for one prompt.
enum LineInput: Equatable {
    case line(String)
    /// A line whose bytes are not UTF-8 text.
    case notUTF8([UInt8])
    /// Ctrl-D on an empty line, or the terminal went away.
    case endOfInput
}

/// GNU readline through its callback interface, with the live status block above the prompt
/// (README, The interactive session).
///
/// Everything runs on the main thread: the interactive loop calls in, and readline calls back
/// into the file-scope C functions below while `rl_callback_read_char` runs. That is why the
/// state lives in `nonisolated(unsafe)` statics: readline's own state is just as global.
enum LineEditor {
    /// Completes the text before the cursor (the session's registry-driven completion).
    nonisolated(unsafe) static var complete: (String) -> Completion = { _ in Completion(candidates: []) }
    /// The status lines to show now.
    nonisolated(unsafe) static var statusLines: () -> [StyledText] = { [] }
    /// The prompt for a new command, which shows virtual time: redrawn as time moves (`play`).
    nonisolated(unsafe) static var mainPrompt: () -> String = { "debugsh> " }
    /// The prompt on screen, and whether it is the main one (not a continuation's).
    nonisolated(unsafe) private static var shownPrompt = ""
    nonisolated(unsafe) private static var promptFollowsTime = false
    /// Whether the block may be styled (NO_COLOR removes colour, not the block).
    nonisolated(unsafe) static var color = true
    /// How many colours the terminal shows.
    nonisolated(unsafe) static var colorDepth = ColorDepth.trueColor

    /// The line (or end of input) the handler received, until the loop takes it.
    nonisolated(unsafe) private static var received: LineInput?
    /// The handler is installed and the prompt is on screen (or hidden for output).
    nonisolated(unsafe) private(set) static var promptLive = false
    /// Output erased the prompt and the block; they come back when the output is done.
    nonisolated(unsafe) private static var promptHidden = false
    /// Rows of the block now on screen, directly above the prompt.
    nonisolated(unsafe) private static var blockHeight = 0
    /// The visible width of each block row as drawn, and the terminal's width then: a terminal
    /// that narrows rewraps long rows, and the block's height on screen grows with it.
    nonisolated(unsafe) private static var blockRowWidths: [Int] = []
    nonisolated(unsafe) private static var blockColumns = 0
    /// The block should be drawn again (a completion list moved it, or time moved).
    nonisolated(unsafe) static var blockIsStale = false
    /// The candidates the generator hands to readline, and where it is in them.
    nonisolated(unsafe) private static var candidates: [String] = []
    nonisolated(unsafe) private static var candidateIndex = 0

    /// The most history entries kept (capped): `shell.history-size`, set by the
    /// session before the history is read (the rc file may change it).
    nonisolated(unsafe) static var historyLimit: Int32 = 1000

    // MARK: - Set-up

    /// Configures readline once, before the first prompt: no signal handling of its own (the
    /// loop owns SIGINT and SIGWINCH), completion through the session, Up/Down as prefix
    /// search and RET/LFD erasing the block before the line is accepted.
    static func setUp() {
        // For `$if debugsh` in ~/.inputrc; never freed, since readline keeps using it.
        rl_readline_name = UnsafePointer(strdup("debugsh"))
        rl_catch_signals = 0
        rl_catch_sigwinch = 0
        rl_change_environment = 0
        rl_initialize()
        // Pasted lines run one by one, as typed ones do.
        rl_variable_bind("enable-bracketed-paste", "off")
        rl_attempted_completion_function = rlAttemptedCompletion
        rl_completion_display_matches_hook = rlDisplayMatches
        // Words split as the session splits them: at blanks and `;`, not at `=` or `-`.
        rl_completer_word_break_characters = UnsafePointer(strdup(" \t\n;"))
        rl_completer_quote_characters = UnsafePointer(strdup("\"'"))
        for name in ["emacs-standard", "vi-insert", "vi-command"] {
            guard let map = rl_get_keymap_by_name(name) else { continue }
            rl_bind_key_in_map(13, rlAcceptLine, map)
            rl_bind_key_in_map(10, rlAcceptLine, map)
        }
        for name in ["emacs-standard", "vi-insert"] {
            guard let map = rl_get_keymap_by_name(name) else { continue }
            for up in ["\\e[A", "\\eOA"] { rl_bind_keyseq_in_map(up, rl_history_search_backward, map) }
            for down in ["\\e[B", "\\eOB"] { rl_bind_keyseq_in_map(down, rl_history_search_forward, map) }
        }
    }

    // MARK: - Prompting

    /// Shows the block and then the prompt for a new command (``mainPrompt``), or the
    /// continuation prompt, and starts reading a line. The cursor is at the start of a row
    /// (after the previous command's output).
    static func showPrompt(continuation: String? = nil) {
        let prompt = continuation ?? mainPrompt()
        shownPrompt = prompt
        promptFollowsTime = continuation == nil
        received = nil
        let rows = renderedBlock()
        writeTerminal(rows.map { "\u{1B}[2K" + $0 + "\r\n" }.joined())
        drew(rows)
        promptHidden = false
        rl_callback_handler_install(prompt, rlLineHandler)
        promptLive = true
        Signals.catchSuspend(true)
    }

    /// Lets readline read what is waiting on standard input.
    ///
    /// - Returns: the line or end of input once readline has one, nil while it is still editing.
    static func readCharacter() -> LineInput? {
        rl_callback_read_char()
        if promptLive && blockIsStale { redrawBlock() }
        defer { received = nil }
        return received
    }

    /// Called from the line handler: stop reading (the handler is re-installed for the next
    /// prompt, so readline does not print a prompt of its own meanwhile).
    fileprivate static func handle(_ line: UnsafeMutablePointer<CChar>?) {
        if let line {
            let bytes = UnsafeRawBufferPointer(start: line, count: strlen(line))
            received = String(validating: bytes, as: UTF8.self).map(LineInput.line) ?? .notUTF8(Array(bytes))
            free(line)
        } else {
            // Ctrl-D: take the block away too, so the scrollback keeps only the prompt.
            redraw(status: [])
            received = .endOfInput
        }
        rl_callback_handler_remove()
        promptLive = false
        Signals.catchSuspend(false)
    }

    /// Ctrl-Z at the prompt: the block goes, the terminal is given back to the shell and the
    /// process stops; after `fg` the terminal is set up again and block and prompt come back.
    static func suspend() {
        guard promptLive else { return }
        if promptHidden { restoreAfterOutput() }
        redraw(status: [])
        rl_cleanup_after_signal()
        fflush(rl_outstream)
        Signals.stopProcess()  // the shell starts its "Stopped" notice on a row of its own
        Signals.catchSuspend(true)
        rl_reset_after_signal()
        promptHidden = true
        restoreAfterOutput()
    }

    /// Ctrl-C at the prompt: `^C` after the line, the line and any search given up, a new row.
    /// The caller shows a fresh prompt.
    static func interruptAtPrompt() {
        guard promptLive else { return }
        if promptHidden { restoreAfterOutput() }
        rl_point = rl_end
        redraw(status: [])
        rl_free_line_state()
        rl_callback_sigcleanup()
        rl_echo_signal_char(SIGINT)
        rl_cleanup_after_signal()
        rl_callback_handler_remove()
        promptLive = false
        Signals.catchSuspend(false)
        writeTerminal("\r\n")
    }

    /// The terminal changed size: readline re-reads it and, at the prompt, the block is drawn
    /// again at the new width, replacing the rows the terminal may have rewrapped it into.
    static func terminalDidResize() {
        guard promptLive else {
            rl_reset_screen_size()
            return
        }
        let before = blockColumns
        rl_resize_terminal()
        let columns = screenSize.columns
        if columns < before && terminalRewraps {
            // Each row now takes as many screen rows as the terminal rewrapped it into.
            blockHeight = blockRowWidths.reduce(0) { $0 + max(1, ($1 + columns - 1) / columns) }
        }
        redrawBlock()
    }

    /// Leaves readline for good: the handler is removed and the terminal restored.
    static func stop() {
        guard promptLive else { return }
        redraw(status: [])
        rl_callback_handler_remove()
        promptLive = false
        Signals.catchSuspend(false)
        writeTerminal("\r\n")
    }

    /// The terminal's size as readline knows it.
    static var screenSize: (rows: Int, columns: Int) {
        var rows: Int32 = 0
        var columns: Int32 = 0
        rl_get_screen_size(&rows, &columns)
        return (rows > 0 ? Int(rows) : 24, columns > 0 ? Int(columns) : 80)
    }

    // MARK: - The status block

    /// Draws the current status lines above the prompt, keeping the input line, the cursor and
    /// any incremental search as they are.
    static func redrawBlock() {
        redraw(status: nil)
    }

    /// Replaces the block with `status` (nil: the current status lines; empty: no block).
    ///
    /// The prompt is cleared (`rl_clear_visible_line` leaves the cursor at the start of its
    /// first row), the cursor moves up to the old block's top, the new rows overwrite the old
    /// ones and rows left over are blanked, then readline redraws the prompt below the block.
    /// Rows are erased with `ESC[2K` rather than `ESC[J`: tmux treats `ESC[J` at the top-left
    /// corner as clearing the screen and pushes the screen into its scrollback.
    static func redraw(status: [StyledText]?) {
        guard promptLive, !promptHidden else { return }
        let rows = status.map { render($0) } ?? renderedBlock()
        rl_clear_visible_line()
        writeTerminal(blockText(rows, replacing: blockHeight))
        drew(rows)
        refreshPrompt()
        rl_on_new_line()
        rl_redisplay()
    }

    /// Readline's states in which it shows a message of its own where the prompt was (an
    /// incremental search, a numeric argument): the prompt waits until it is back.
    private static let messageStates = UInt(
        RL_STATE_ISEARCH | RL_STATE_NSEARCH | RL_STATE_SEARCH | RL_STATE_NUMERICARG | RL_STATE_COMPLETING)

    /// Puts virtual time now in the prompt, when it moved while the prompt was up (`play`).
    private static func refreshPrompt() {
        guard promptFollowsTime, rl_readline_state & messageStates == 0 else { return }
        let prompt = mainPrompt()
        guard prompt != shownPrompt else { return }
        shownPrompt = prompt
        rl_set_prompt(prompt)
    }

    /// Erases the block and the prompt before output appears while the prompt is live; the
    /// next ``restoreAfterOutput()`` draws them again below the output.
    static func hideForOutput() {
        guard promptLive, !promptHidden else { return }
        rl_clear_visible_line()
        writeTerminal(blockText([], replacing: blockHeight))
        drew([])
        promptHidden = true
    }

    /// Draws the block and the prompt again after output (see ``hideForOutput()``).
    static func restoreAfterOutput() {
        guard promptLive, promptHidden else { return }
        promptHidden = false
        let rows = renderedBlock()
        writeTerminal(rows.map { "\u{1B}[2K" + $0 + "\r\n" }.joined())
        drew(rows)
        refreshPrompt()
        rl_on_new_line()
        rl_redisplay()
    }

    /// Whether output hid the prompt, so the loop should restore it.
    static var needsRestore: Bool { promptLive && promptHidden }

    /// The escape codes that move from the start of the prompt's first row to the top of a
    /// block `old` rows high, write `rows` there, blank what is left of the old block, and end
    /// at the start of the row under the new block.
    private static func blockText(_ rows: [String], replacing old: Int) -> String {
        var out = old > 0 ? "\u{1B}[\(old)A\r" : "\r"
        for row in rows { out += "\u{1B}[2K" + row + "\r\n" }
        let leftover = old - rows.count
        if leftover > 0 {
            out += String(repeating: "\u{1B}[2K\u{1B}[1B", count: leftover)
            out += "\u{1B}[\(leftover)A"
        }
        return out
    }

    /// Notes the block now on screen.
    private static func drew(_ rows: [String]) {
        blockHeight = rows.count
        blockRowWidths = rows.map { TextWidth.width(of: $0) }
        blockColumns = screenSize.columns
        blockIsStale = false
    }

    /// Whether the terminal rewraps rows that no longer fit when it narrows: tmux, VTE,
    /// kitty, iTerm2, Alacritty and most modern terminals do; xterm, rxvt and GNU screen cut
    /// them instead. Guessing wrong costs either a stale row or an erased row of output, so
    /// only the known non-rewrapping terminals are excepted.
    static let terminalRewraps: Bool = {
        if environmentValue("TMUX") != nil { return true }
        if environmentValue("STY") != nil || environmentValue("XTERM_VERSION") != nil { return false }
        return !(environmentValue("TERM") ?? "").hasPrefix("rxvt")
    }()

    private static func renderedBlock() -> [String] { render(statusLines()) }

    private static func render(_ lines: [StyledText]) -> [String] {
        let size = screenSize
        return StatusBlock.rows(lines, columns: size.columns, rows: size.rows, color: color, depth: colorDepth)
    }

    /// Writes straight to the terminal after whatever readline buffered.
    static func writeTerminal(_ text: String) {
        guard !text.isEmpty else { return }
        fflush(rl_outstream)
        TerminalSink.writeAll(fd: 1, Array(text.utf8))
    }

    // MARK: - The progress line of a long `run`

    /// Whether a progress line shows on the row under the running command.
    nonisolated(unsafe) private static var progressShown = false

    /// Draws `text` on the cursor's row — the row under the command, where its output would
    /// go — cut to the terminal's width; the cursor stays at the row's end. While a command runs
    /// only: the prompt is not live.
    static func showProgress(_ text: String) {
        guard !promptLive else { return }
        let columns = screenSize.columns
        var shown = ""
        var width = 0
        for character in text {
            let w = TextWidth.width(of: character)
            if width + w > columns - 1 { break }
            shown.append(character)
            width += w
        }
        writeTerminal("\r\u{1B}[2K" + shown)
        progressShown = true
    }

    /// Erases the progress line, leaving the cursor at the start of its row.
    ///
    /// - Returns: whether one showed.
    @discardableResult
    static func eraseProgress() -> Bool {
        guard progressShown else { return false }
        progressShown = false
        writeTerminal("\r\u{1B}[2K")
        return true
    }

    // MARK: - History

    /// Reads the history file (a missing file is fine) and caps the list.
    static func loadHistory(from path: String) {
        using_history()
        stifle_history(historyLimit)
        _ = read_history(path)
    }

    /// Adds a line to the history unless it is blank or repeats the entry before it.
    static func addToHistory(_ line: String) {
        guard line.contains(where: { !$0.isWhitespace }) else { return }
        if history_length > 0, let last = history_get(history_base + history_length - 1), let text = last.pointee.line,
            String(cString: text) == line
        {
            return
        }
        add_history(line)
    }

    /// Writes the history file atomically with mode 0600: a temporary file beside it, then a
    /// rename, so a crash or a second session never leaves half a file.
    ///
    /// - Returns: an error message, or nil when the file was written.
    static func saveHistory(to path: String) -> String? {
        stifle_history(historyLimit)
        FileIO.makeDirectories(FileIO.directory(of: path), mode: 0o700)
        let temp = path + ".tmp.\(getpid())"
        let status = write_history(temp)
        guard status == 0 else {
            unlink(temp)
            return "cannot write the history file '\(path)': \(String(cString: strerror(status)))"
        }
        chmod(temp, 0o600)
        guard rename(temp, path) == 0 else {
            let message = String(cString: strerror(errno))
            unlink(temp)
            return "cannot write the history file '\(path)': \(message)"
        }
        return nil
    }

    // MARK: - Completion

    fileprivate static func completions(
        text: UnsafePointer<CChar>, end: Int32
    ) -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? {
        // readline's offsets count bytes of the UTF-8 line.
        let before =
            rl_line_buffer.map { String(decoding: UnsafeRawBufferPointer(start: $0, count: Int(end)), as: UTF8.self) }
            ?? ""
        let completion = complete(before)
        if completion.filePaths {
            fileCompletion = completion
            if !completion.fileExtensions.isEmpty { return rl_completion_matches(text, rlFileCandidate) }
            return rl_completion_matches(text, rl_filename_completion_function)
        }
        let word = String(cString: text)
        candidates = completion.candidates.filter { $0.hasPrefix(word) }
        candidateIndex = 0
        return rl_completion_matches(text, rlCandidate)
    }

    /// The file completion in progress: which files it offers (Completion.fileExtensions).
    nonisolated(unsafe) private static var fileCompletion = Completion(candidates: [])

    /// readline's file names, those the completion does not offer skipped (`fps plot` takes
    /// folders and `.svg` files).
    fileprivate static func nextFile(_ text: UnsafePointer<CChar>, state: Int32) -> UnsafeMutablePointer<CChar>? {
        var state = state
        while let name = rl_filename_completion_function(text, state) {
            state = 1
            let path = String(cString: name)
            var info = stat()
            var expanded = path
            if path.hasPrefix("~"), let home = tilde_expand(name) {
                expanded = String(cString: home)
                free(home)
            }
            let isDirectory = stat(expanded, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
            if fileCompletion.offers(file: path, isDirectory: isDirectory) { return name }
            free(name)
        }
        return nil
    }

    fileprivate static func nextCandidate(restart: Bool) -> UnsafeMutablePointer<CChar>? {
        if restart { candidateIndex = 0 }
        guard candidateIndex < candidates.count else { return nil }
        defer { candidateIndex += 1 }
        return strdup(candidates[candidateIndex])  // readline frees it
    }

    /// Shows a completion list where the block was; the block comes back under the list.
    fileprivate static func displayMatches(
        _ matches: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, count: Int32, longest: Int32
    ) {
        redraw(status: [])
        rl_display_match_list(matches, count, longest)
        drew([])
        rl_forced_update_display()
        blockIsStale = true
    }
}

// MARK: - C callbacks (file-scope functions: C function pointers cannot capture)

private func rlLineHandler(_ line: UnsafeMutablePointer<CChar>?) {
    LineEditor.handle(line)
}

/// RET and LFD: erase the block before readline ends the line, so the scrollback holds the
/// prompt and command but no stale status rows.
private func rlAcceptLine(_ count: Int32, _ key: Int32) -> Int32 {
    LineEditor.redraw(status: [])
    return rl_newline(count, key)
}

private func rlAttemptedCompletion(
    _ text: UnsafePointer<CChar>?, _ start: Int32, _ end: Int32
) -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? {
    rl_attempted_completion_over = 1  // no filename fallback unless the session asks for it
    guard let text else { return nil }
    return LineEditor.completions(text: text, end: end)
}

private func rlFileCandidate(_ text: UnsafePointer<CChar>?, _ state: Int32) -> UnsafeMutablePointer<CChar>? {
    guard let text else { return nil }
    return LineEditor.nextFile(text, state: state)
}

private func rlCandidate(_ text: UnsafePointer<CChar>?, _ state: Int32) -> UnsafeMutablePointer<CChar>? {
    LineEditor.nextCandidate(restart: state == 0)
}

private func rlDisplayMatches(
    _ matches: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, _ count: Int32, _ longest: Int32
) {
    LineEditor.displayMatches(matches, count: count, longest: longest)
}
