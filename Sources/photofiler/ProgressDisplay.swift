import Dispatch
import Foundation
import PhotoFilerSystem

/// Shows long work on stderr: a one-line bar redrawn in place on a terminal, plain
/// lines every few seconds otherwise (a pipe, a journal), nothing with `--json`,
/// nor with `--quiet` when stderr is not a terminal. Work that ends before the
/// first report is due shows nothing at all.
final class ProgressDisplay {
    enum Style: Equatable { case bar, lines, none }

    /// Seconds between reports: 0.2 for a bar, 5 for plain lines;
    /// `$PHOTOFILER_PROGRESS_INTERVAL` sets both.
    static func interval(_ style: Style) -> Double {
        if let text = ProcessInfo.processInfo.environment["PHOTOFILER_PROGRESS_INTERVAL"],
            let seconds = Double(text), seconds >= 0
        {
            return seconds
        }
        return style == .bar ? 0.2 : 5
    }

    let style: Style
    private let what: String
    private let unit: String
    private var progress: WorkProgress
    private var drawn = false

    static func style(json: Bool, quiet: Bool) -> Style {
        if json { return .none }
        if Sys.isTerminal(2) { return .bar }
        return quiet ? .none : .lines
    }

    init(_ what: String, unit: String = "file", total: Int, style: Style) {
        self.what = what
        self.unit = unit
        self.style = style
        progress = WorkProgress(
            total: total, interval: Self.interval(style), now: Self.now)
    }

    /// Counts `count` more done and shows it when a report is due.
    func advance(by count: Int = 1) {
        guard style != .none, let snapshot = progress.advance(by: count, now: Self.now) else { return }
        // The end of short work is not worth a line: nothing was shown before it.
        guard progress.reportedEarly else { return }
        switch style {
        case .bar:
            write("\r" + snapshot.bar(what, unit: unit) + "\u{1B}[K" + (snapshot.isComplete ? "\n" : ""))
            drawn = !snapshot.isComplete
        case .lines:
            write(snapshot.line(what, unit: unit) + "\n")
        case .none:
            break
        }
    }

    /// Ends a bar left unfinished (the work stopped early), so the next line starts clean.
    func finish() {
        if drawn { write("\n") }
        drawn = false
    }

    private func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }

    private static var now: Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }
}

/// A `ProgressDisplay` for work whose total the core learns as it goes: it is made
/// at the first report (`done`, `total`) and moved on from there.
final class ProgressTracker {
    private let what: String
    private let unit: String
    private let style: ProgressDisplay.Style
    private var display: ProgressDisplay?
    private var done = 0

    init(_ what: String, unit: String, style: ProgressDisplay.Style) {
        self.what = what
        self.unit = unit
        self.style = style
    }

    func advance(_ done: Int, _ total: Int) {
        let display = self.display ?? ProgressDisplay(what, unit: unit, total: total, style: style)
        self.display = display
        display.advance(by: done - self.done)
        self.done = done
    }

    func finish() { display?.finish() }
}
