/// The helper pool's rules for a helper that ends or overruns, as plain values
/// (HelperEndingPolicyTests): who is blamed, who goes again, and when a deadline
/// means a kill. `HelperPool` performs the verdicts.
///
/// A crash costs the file a helper was on one more try, on a helper started since
/// (a kill from outside may end every helper at once: one about to die is no second
/// try); a second crash, a hang past the deadline or nonsense refuses that file
/// alone. When the helper may have been holding the answer of its oldest request
/// while working on a later one (`AnswerRuns`), no one can be blamed: each file it
/// had goes again alone, where the blame is exact.
package enum HelperEndingPolicy {
    /// How a helper ended.
    package enum Ending: Equatable, Sendable {
        /// It closed its socket or died (a crash, a kill, its memory limit).
        case hungUp
        /// It sent an answer that breaks the protocol.
        case misbehaved
        /// Its oldest request overran its deadline (and it was killed).
        case timedOut
    }

    package enum Verdict: Equatable, Sendable {
        /// It had nothing in hand.
        case noneBlamed
        /// It may have held the head's answer and been on any of its files: each
        /// goes again alone.
        case eachAgainAlone
        /// The head is refused: it hung, or this was the second helper it ended.
        case refuseHead
        /// The head goes again, on a helper started after this one ended.
        case headAgainOnALaterHelper
    }

    /// What becomes of the files a helper had in flight (the head first) when it ended.
    /// `headFailures` counts the helpers that ended on the head before this one.
    package static func verdict(
        _ ending: Ending, inFlight: Int, headAnswerMayBeHeld: Bool, headFailures: Int
    ) -> Verdict {
        if inFlight == 0 { return .noneBlamed }
        if inFlight > 1, headAnswerMayBeHeld { return .eachAgainAlone }
        switch ending {
        case .timedOut: return .refuseHead
        case .hungUp, .misbehaved: return headFailures + 1 >= 2 ? .refuseHead : .headAgainOnALaterHelper
        }
    }

    /// A request's deadline in seconds: the base, plus a second per `bytesPerExtraSecond`
    /// of the file; a thumbnail decodes pixels (a video's frame, a large HEIC), so it
    /// has thrice the time.
    package static func deadline(
        base: Double, fileSize: Int64, bytesPerExtraSecond: Int64, thumbnail: Bool
    ) -> Double {
        let seconds = base + Double(fileSize / bytesPerExtraSecond)
        return thumbnail ? 3 * seconds : seconds
    }

    package enum DeadlineCheck: Equatable, Sendable {
        /// The helper is killed and its head refused.
        case end
        /// Not yet: look again after this many seconds.
        case lookAgain(after: Double)
    }

    /// When the wall time of a head's deadline is up: a helper that spent that much
    /// CPU time on it loops, one that let four times the wall time go by blocks;
    /// else the machine is busy, and the check waits for the CPU time still due (a
    /// busy machine slows a helper down, it does not make it hostile). `cpu` is nil
    /// when the helper's CPU time could not be read (it is gone).
    package static func atDeadline(budget: Double, cpu: Double?, wall: Double) -> DeadlineCheck {
        guard let cpu, cpu < budget * 0.95, wall < 4 * budget else { return .end }
        return .lookAgain(after: min(max(budget - cpu, 0.25), 4 * budget - wall))
    }
}
