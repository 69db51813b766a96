import Testing

@testable import PhotoFilerSandbox

/// The helper pool's verdicts as tables: how a helper ended and what it had in
/// hand in, who is blamed and who goes again out; and when a deadline is a kill.
@Suite struct HelperEndingPolicyTests {
    typealias Policy = HelperEndingPolicy

    struct VerdictRow: CustomTestStringConvertible, Sendable {
        let name: String
        let ending: Policy.Ending
        let inFlight: Int
        let held: Bool
        let failures: Int
        let verdict: Policy.Verdict
        var testDescription: String { name }
    }

    static let verdicts: [VerdictRow] = [
        VerdictRow(
            name: "an idle helper that dies blames no one", ending: .hungUp, inFlight: 0, held: false,
            failures: 0, verdict: .noneBlamed),
        VerdictRow(
            name: "a first crash: the file goes again, on a later helper", ending: .hungUp, inFlight: 1,
            held: false, failures: 0, verdict: .headAgainOnALaterHelper),
        VerdictRow(
            name: "a second crash on the same file refuses it", ending: .hungUp, inFlight: 3, held: false,
            failures: 1, verdict: .refuseHead),
        VerdictRow(
            name: "nonsense counts as a crash", ending: .misbehaved, inFlight: 1, held: false, failures: 0,
            verdict: .headAgainOnALaterHelper),
        VerdictRow(
            name: "nonsense a second time refuses", ending: .misbehaved, inFlight: 1, held: false,
            failures: 1, verdict: .refuseHead),
        VerdictRow(
            name: "a hang refuses at once", ending: .timedOut, inFlight: 2, held: false, failures: 0,
            verdict: .refuseHead),
        VerdictRow(
            name: "a held answer among several: each goes again alone", ending: .hungUp, inFlight: 4,
            held: true, failures: 1, verdict: .eachAgainAlone),
        VerdictRow(
            name: "a held answer and a hang: still no one to blame", ending: .timedOut, inFlight: 2,
            held: true, failures: 0, verdict: .eachAgainAlone),
        VerdictRow(
            name: "alone, a held answer is its own: blamed as usual", ending: .hungUp, inFlight: 1,
            held: true, failures: 1, verdict: .refuseHead),
    ]

    @Test(arguments: verdicts)
    func verdict(_ row: VerdictRow) {
        let verdict = Policy.verdict(
            row.ending, inFlight: row.inFlight, headAnswerMayBeHeld: row.held, headFailures: row.failures)
        #expect(verdict == row.verdict)
    }

    @Test func aDeadlineGrowsWithTheFileAndTriplesForAThumbnail() {
        let mebibytes: Int64 = 1 << 20
        #expect(
            Policy.deadline(base: 10, fileSize: 0, bytesPerExtraSecond: 50 * mebibytes, thumbnail: false)
                == 10)
        #expect(
            Policy.deadline(
                base: 10, fileSize: 120 * mebibytes, bytesPerExtraSecond: 50 * mebibytes, thumbnail: false)
                == 12)
        #expect(
            Policy.deadline(
                base: 10, fileSize: 120 * mebibytes, bytesPerExtraSecond: 50 * mebibytes, thumbnail: true)
                == 36)
    }

    struct DeadlineRow: CustomTestStringConvertible, Sendable {
        let name: String
        var budget = 10.0
        let cpu: Double?
        let wall: Double
        let check: Policy.DeadlineCheck
        var testDescription: String { name }
    }

    /// A budget of 10 s unless the row says otherwise.
    static let deadlines: [DeadlineRow] = [
        DeadlineRow(name: "it spent its CPU budget: a loop", cpu: 9.6, wall: 10, check: .end),
        DeadlineRow(name: "four times the wall time: it blocks", cpu: 1, wall: 40, check: .end),
        DeadlineRow(name: "its CPU time cannot be read: it is gone", cpu: nil, wall: 10, check: .end),
        DeadlineRow(
            name: "a busy machine: wait for the CPU time still due", cpu: 4, wall: 10,
            check: .lookAgain(after: 6)),
        DeadlineRow(
            name: "nearly due: at least a quarter second", budget: 1, cpu: 0.875, wall: 1,
            check: .lookAgain(after: 0.25)),
        DeadlineRow(name: "the wall backstop comes first", cpu: 2, wall: 37, check: .lookAgain(after: 3)),
    ]

    @Test(arguments: deadlines)
    func atDeadline(_ row: DeadlineRow) {
        #expect(Policy.atDeadline(budget: row.budget, cpu: row.cpu, wall: row.wall) == row.check)
    }
}
