/// Answers in runs: a helper with more requests already waiting in its socket may
/// hold the answers to quick ones back and send them together, so that a burst
/// wakes the daemon's side once for several files instead of once a file (issue 15:
/// twelve paired 10,000-file bursts, 1.6% more files a second, 2.4% less of the
/// daemon's CPU).
///
/// The pool blames the oldest unanswered request when a helper crashes or hangs.
/// While answers may be held, that need not be the file the helper was on, so then
/// the pool blames none: each of them goes again alone to a helper with nothing
/// else to do, which has nothing to hold (`HelperPool.helperEnded`).
package enum AnswerRuns {
    /// Answers held at most before they go.
    package static let longest = 8

    /// Whether the answer to a request of `kind` for a file of `size` bytes may be
    /// held: an inspection of a file this small takes milliseconds, so a held
    /// answer never waits near its deadline. A thumbnail decodes pixels, so it is
    /// answered at once, and the answers held go before it is started.
    package static func mayHold(_ kind: HelperRequestKind, size: Int64) -> Bool {
        kind == .inspect && size <= 16 << 20
    }

    /// `mayHold` for a request as the helper receives it.
    package static func mayHold(_ request: HelperRequest) -> Bool {
        guard request.kind == .inspect, let (_, size) = try? request.inspectBody() else { return false }
        return mayHold(request.kind, size: size)
    }
}
