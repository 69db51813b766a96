import Dispatch

/// The daemon's one timer for its state machines: armed to the earliest deadline
/// any of them has, and to none while none has one, so an idle daemon is never
/// woken (photofiler(1) "The daemon").
///
/// Thread safety: `@unchecked Sendable` is sound because `armedFor` and the timer
/// are touched on `queue` only (checked with `dispatchPrecondition`), and the
/// handler runs there.
final class DeadlineTimer: @unchecked Sendable {
    let queue: DispatchQueue
    private let timer: DispatchSourceTimer
    private var armedFor: UInt64?

    /// `onDue` runs on `queue` when the deadline passed to `arm` has come.
    init(queue: DispatchQueue, onDue: @escaping @Sendable () -> Void) {
        self.queue = queue
        timer = DispatchSource.makeTimerSource(queue: queue)
        timer.setEventHandler { @Sendable [weak self] in
            self?.armedFor = nil
            onDue()
        }
        timer.schedule(deadline: .distantFuture, repeating: .never)
        timer.activate()
    }

    deinit {
        timer.cancel()
    }

    /// The clock of every deadline: Dispatch's monotonic uptime, in nanoseconds.
    static var now: UInt64 { DispatchTime.now().uptimeNanoseconds }

    /// Arms the timer for `deadline`, or disarms it when nil; unchanged deadlines cost nothing.
    func arm(at deadline: UInt64?) {
        dispatchPrecondition(condition: .onQueue(queue))
        guard deadline != armedFor else { return }
        armedFor = deadline
        if let deadline {
            timer.schedule(
                deadline: DispatchTime(uptimeNanoseconds: deadline), repeating: .never,
                leeway: .milliseconds(1))
        } else {
            timer.schedule(deadline: .distantFuture, repeating: .never)
        }
    }
}
