import Dispatch
import Glibc
import PhotoFilerMediaTypes
import PhotoFilerSystem
import Synchronization

/// Reads media in sandboxed helper processes (photofiler(1) "Untrusted bytes"): the only way
/// the daemon, `save` and the reconcile learn what a file is.
///
/// As many helpers as cores, started on the first request and ended after a
/// minute without one (an idle daemon has no helper and no timer but that one).
/// Requests are pipelined: up to `inFlightPerHelper` wait in each helper's socket,
/// so a burst is not paid a round trip per file, and the answers to quick ones come
/// back in runs (`AnswerRuns`). A helper that crashes costs the
/// file it was on one more try on a fresh helper, one started since (it may have
/// been killed from outside, and a kill from outside may end every helper at once:
/// one about to die is no second try); a second crash, or a file it is still on after its deadline (then the
/// helper is killed), refuses that file alone. A deadline is CPU time the helper
/// spent on the file, with four times as much wall time as the backstop for one
/// that blocks: a busy machine slows a helper down, it does not make it hostile. The requests queued behind
/// it go to the next helper.
///
/// Thread safety: `@unchecked Sendable` is sound because all mutable state lives
/// on `queue` (each entry point hops onto it; the rest checks with
/// `dispatchPrecondition`); callers block on a `PendingReads`, never on `queue`.
public final class HelperPool: @unchecked Sendable {
    package struct Settings: Sendable {
        /// Helpers of each kind at most.
        package var helpers = max(1, Int(sysconf(CInt(_SC_NPROCESSORS_ONLN))))
        /// A helper unused this long ends.
        package var idleSeconds = 60.0
        /// A helper that spent this much CPU time on one file (or four times as much
        /// wall time) is killed, and the file refused…
        package var deadlineSeconds = 10.0
        /// … plus a second per this many bytes (a large video).
        package var bytesPerExtraSecond: Int64 = 50 << 20
        package var inFlightPerHelper = 32
        /// Then a helper is replaced by a fresh one (its CPU limit is for its whole life).
        package var requestsPerHelper = 20_000

        /// The defaults; in debug builds `PHOTOFILER_HELPER_DEADLINE_MS` and
        /// `PHOTOFILER_HELPER_IDLE_MS` shorten them for the tests.
        package static var standard: Settings {
            var settings = Settings()
            #if DEBUG
                if let text = getenv("PHOTOFILER_HELPER_DEADLINE_MS"),
                    let value = Double(String(cString: text))
                {
                    settings.deadlineSeconds = value / 1000
                }
                if let text = getenv("PHOTOFILER_HELPER_IDLE_MS"), let value = Double(String(cString: text)) {
                    settings.idleSeconds = value / 1000
                }
            #endif
            return settings
        }
    }

    /// The pool of this process.
    public static let shared = HelperPool(settings: .standard)

    let settings: Settings
    private let queue = DispatchQueue(label: "photofiler.helpers")
    private var helpers: [RunningHelper] = []
    /// Helpers started so far: the last one's `serial`.
    private var helpersStarted: UInt64 = 0
    /// The jobs no helper has yet, in order, by the kind of helper they wait for.
    private var waiting: [HelperKind: [Job]] = [:]
    private var idleTimer: DispatchSourceTimer?
    private var executables: [HelperKind: BytePath] = [:]
    private var stopped = false
    private let libraryLog = Mutex<(@Sendable (String) -> Void)?>(nil)

    package init(settings: Settings) {
        self.settings = settings
    }

    /// Where the helpers' C libraries' messages go (debug detail); nil drops them.
    public func setLibraryLog(_ sink: (@Sendable (String) -> Void)?) {
        libraryLog.withLock { $0 = sink }
    }

    /// Asks the helpers what each file is; the answers come in order. Each `fd`
    /// stays open until `wait()` returns.
    public func inspect(_ files: [MediaFile]) -> PendingReads {
        let reads = PendingReads(paths: files.map(\.path), libraryLog: libraryLog.withLock { $0 })
        let jobs = files.enumerated().map { index, file in
            Job(kind: .inspect, file: file, probePath: nil, reads: reads, index: index)
        }
        queue.async { [self] in submit(jobs) }
        return reads
    }

    /// One file, waited for.
    public func inspect(_ file: MediaFile) -> Result<MediaInfo, MediaError> {
        inspect([file]).wait()[0]
    }

    /// Asks a helper for the renditions `request` lists of `file`, written into
    /// `output` (an empty file opened for writing) one after another; waited for.
    /// A crash, a hang or a refusal is a `ThumbnailFailure` with the reason.
    package func thumbnails(_ file: MediaFile, _ request: ThumbnailRequest, into output: FileDescriptor)
        -> Result<ThumbnailLayout, ThumbnailFailure>
    {
        let reads = PendingReads(paths: [file.path], libraryLog: libraryLog.withLock { $0 })
        let job = Job(kind: .thumbnail, file: file, probePath: nil, reads: reads, index: 0)
        job.thumbnail = (request, output)
        queue.async { [self] in submit([job]) }
        switch reads.waitForAnswers()[0] {
        case .failure(let error):
            // Not the file's doing: said in a thumbnail's words (the reading's speak of inboxes).
            switch error {
            case .notReadBeforeStop:
                return .failure(ThumbnailFailure("photofiler stopped before it was made", isTransient: true))
            case .readerUnavailable(_, let reason):
                return .failure(
                    ThumbnailFailure(
                        "no sandboxed helper could start (\(reason)); reinstall photofiler with 'make install'",
                        isTransient: true))
            case .libraryUnavailable(let name, let reason):
                return .failure(
                    ThumbnailFailure(
                        "\(name) could not start (\(reason)); reinstall it with 'make deps'",
                        isTransient: true))
            default:
                return .failure(ThumbnailFailure(error.description))
            }
        case .success(let answer):
            switch answer.outcome {
            case .value:
                let size = (try? output.status().size) ?? 0
                guard let layout = try? ThumbnailLayout(wire: answer.body, outputSize: size) else {
                    return .failure(ThumbnailFailure("the sandboxed reader answered nonsense"))
                }
                return .success(layout)
            case .refused:
                var reader = WireReader(answer.body)
                return .failure(
                    ThumbnailFailure((try? reader.text(limit: 1024)) ?? "it could not be decoded"))
            case .unsupported:
                return .failure(ThumbnailFailure("the sandboxed reader does not make thumbnails"))
            }
        }
    }

    /// Starts the light helpers now if none runs, so that the file about to come (one
    /// that is still settling) does not wait for their start. They end when idle, as ever.
    public func prepare() {
        queue.async { [self] in
            guard !stopped, helpers.isEmpty else { return }
            while helpers.count < settings.helpers, startHelper(.light) != nil {}
            pump()
        }
    }

    /// Ends every helper at once and refuses everything asked from now on: the
    /// process is stopping, and nothing it waits for should wait on a parser.
    public func stop() {
        queue.sync {
            stopped = true
            idleTimer?.cancel()
            idleTimer = nil
            for helper in helpers {
                end(helper, killing: true)
                for job in helper.inFlight { stopped(job) }
            }
            helpers = []
            for job in waiting.values.joined() { stopped(job) }
            waiting = [:]
        }
    }

    /// The pids of the running helpers (for tests and `status`).
    package var helperPIDs: [pid_t] { queue.sync { helpers.map(\.process.pid) } }

    /// The pids of the running helpers of one kind (for tests).
    package func helperPIDs(_ kind: HelperKind) -> [pid_t] {
        queue.sync { helpers.filter { $0.kind == kind }.map(\.process.pid) }
    }

    #if DEBUG
        /// Asks a helper of `kind` to open `path` (it must fail: the sandbox forbids it);
        /// the errno it got.
        package func probeOpen(_ path: BytePath, in kind: HelperKind = .light) -> Result<CInt, MediaError> {
            let reads = PendingReads(paths: [path], libraryLog: nil)
            let job = Job(kind: .probeOpen, file: nil, probePath: path, reads: reads, index: 0)
            job.needsDecoders = kind == .full
            queue.async { [self] in submit([job]) }
            return reads.waitForAnswers()[0].map { answer in
                var reader = WireReader(answer.body)
                return CInt(truncatingIfNeeded: (try? reader.integer()) ?? -1)
            }
        }
    #endif

    // MARK: On the queue

    private func submit(_ jobs: [Job]) {
        dispatchPrecondition(condition: .onQueue(queue))
        guard !stopped else {
            for job in jobs { stopped(job) }
            return
        }
        for job in jobs { waiting[job.helperKind, default: []].append(job) }
        pump()
    }

    /// Sends waiting jobs to helpers of their kind with room, starting helpers up to
    /// the pool's size; arms the idle timer when nothing is left to do.
    private func pump() {
        dispatchPrecondition(condition: .onQueue(queue))
        if waiting.values.contains(where: { !$0.isEmpty }) {
            idleTimer?.cancel()
            idleTimer = nil
        }
        for kind in HelperKind.allCases {
            while let job = waiting[kind]?.first, let helper = helperWithRoom(for: job) {
                waiting[kind]?.removeFirst()
                // A full socket: the helper's next answer pumps again.
                if !send(job, to: helper) { break }
            }
        }
        // Closures, not key paths: this runs for every answer, and a key path over
        // `waiting`'s values was projected at run time (`swift_getAtKeyPath`, in `perf`).
        if waiting.values.allSatisfy({ $0.isEmpty }), helpers.allSatisfy({ $0.inFlight.isEmpty }) {
            armIdleTimer()
        }
    }

    /// An idle helper of the job's kind, else a new one while there are fewer than the
    /// pool's size, else the least busy with room. A job whose helper died takes only
    /// a helper started since, unless there is none and none can start.
    private func helperWithRoom(for job: Job) -> RunningHelper? {
        let kind = job.helperKind
        // One pass, no filtered copies: asked for every request sent.
        var ofKind = 0
        var startedSinceItsCrash = false
        var idle: RunningHelper?
        var leastBusy: RunningHelper?
        for helper in helpers where helper.kind == kind {
            ofKind += 1
            if helper.serial > job.retryAfterHelper { startedSinceItsCrash = true }
            guard helper.serial > job.retryAfterHelper,
                helper.inFlight.count < (job.alone ? 1 : settings.inFlightPerHelper),
                !helper.inFlight.contains(where: { $0.alone }),
                helper.served + helper.inFlight.count < settings.requestsPerHelper
            else { continue }
            if idle == nil, helper.inFlight.isEmpty { idle = helper }
            if leastBusy.map({ helper.inFlight.count < $0.inFlight.count }) ?? true { leastBusy = helper }
        }
        if let idle { return idle }
        if ofKind < settings.helpers, let started = startHelper(kind) { return started }
        if let leastBusy { return leastBusy }
        if job.retryAfterHelper > 0, ofKind > 0, !startedSinceItsCrash {
            // No helper could start since its crash: an older one, rather than waiting for none.
            job.retryAfterHelper = 0
            return helperWithRoom(for: job)
        }
        return nil
    }

    private func startHelper(_ kind: HelperKind) -> RunningHelper? {
        dispatchPrecondition(condition: .onQueue(queue))
        let path: BytePath
        if let executable = executables[kind] {
            path = executable
        } else {
            switch HelperExecutable.locate(kind) {
            case .success(let found):
                executables[kind] = found
                path = found
            case .failure(let unavailable):
                refuseWaiting(kind, unavailable.reason)
                return nil
            }
        }
        let process: HelperProcess
        do {
            process = try HelperProcess.spawn(path)
        } catch {
            if !helpers.contains(where: { $0.kind == kind }) {
                refuseWaiting(kind, "it cannot be started: \(error)")
            }
            return nil
        }
        let source = DispatchSource.makeReadSource(fileDescriptor: process.socket.rawValue, queue: queue)
        // One timer per helper, moved (`armDeadline`) rather than made anew; it is
        // parked at `.distantFuture` (never fires) while the helper has nothing to do.
        let deadline = DispatchSource.makeTimerSource(queue: queue)
        helpersStarted += 1
        let helper = RunningHelper(
            kind: kind, serial: helpersStarted, process: process, source: source, deadline: deadline)
        source.setEventHandler { @Sendable [unowned self, unowned helper] in self.readAnswers(helper) }
        source.setCancelHandler { @Sendable in process.socket.close() }
        deadline.setEventHandler { @Sendable [unowned self, unowned helper] in
            helper.armedUntil = nil  // it fired: a timer without an interval fires once
            guard self.helpers.contains(where: { $0 === helper }), !helper.inFlight.isEmpty else { return }
            self.deadlineReached(helper)
        }
        deadline.schedule(deadline: .distantFuture)
        source.activate()
        deadline.activate()
        helpers.append(helper)
        return helper
    }

    /// False when the helper's socket is full. A helper found gone is replaced (true:
    /// the job waits again for the next one).
    private func send(_ job: Job, to helper: RunningHelper) -> Bool {
        helper.nextID &+= 1
        let request: HelperRequest
        var descriptors = job.file.map { [$0.fd] } ?? []
        switch job.kind {
        case .inspect: request = .inspect(id: helper.nextID, path: job.path, size: job.file?.size ?? 0)
        case .thumbnail:
            guard let thumbnail = job.thumbnail else {
                preconditionFailure("a thumbnail job has its request")
            }
            request = .thumbnail(
                id: helper.nextID, path: job.path, size: job.file?.size ?? 0, request: thumbnail.request)
            descriptors.append(thumbnail.output)
        case .probeOpen: request = .probeOpen(id: helper.nextID, path: job.path)
        }
        do {
            try Sys.sendMessage(helper.process.socket, request.encoded, passing: descriptors)
        } catch {
            waiting[job.helperKind, default: []].insert(job, at: 0)
            if error.errno != .wouldBlock { helperEnded(helper, why: .hungUp) }
            return error.errno != .wouldBlock
        }
        job.id = helper.nextID
        helper.inFlight.append(job)
        if helper.inFlight.count == 1 { armDeadline(helper) }
        return true
    }

    private func readAnswers(_ helper: RunningHelper) {
        dispatchPrecondition(condition: .onQueue(queue))
        guard helpers.contains(where: { $0 === helper }) else { return }
        var answered = false
        while true {
            let message: (bytes: [UInt8], descriptors: [FileDescriptor])?
            do {
                message = try Sys.receiveMessage(helper.process.socket, limit: HelperRequest.largestMessage)
            } catch {
                if error.errno == .wouldBlock { break }
                helperEnded(helper, why: .misbehaved)
                break
            }
            guard let message else {
                helperEnded(helper, why: .hungUp)
                break
            }
            // A helper has no business sending one.
            for descriptor in message.descriptors { descriptor.close() }
            guard let job = helper.inFlight.first, let answer = try? HelperAnswer.decode(message.bytes),
                answer.id == job.id
            else {
                helperEnded(helper, why: .misbehaved)
                break
            }
            helper.inFlight.removeFirst()
            helper.served += 1
            answered = true
            if helper.kind == .light, job.kind == .inspect, answer.outcome == .unsupported {
                // It needs a decoder: on to a helper that has them, after those already waiting.
                job.needsDecoders = true
                waiting[.full, default: []].append(job)
            } else {
                job.reads.complete(job.index, .success(answer))
            }
            if helper.inFlight.isEmpty, helper.served >= settings.requestsPerHelper { retire(helper) }
        }
        // Once for the answers read: the new head's deadline starts now (and only
        // then: a wake-up that read nothing leaves the head's deadline alone).
        if answered, helpers.contains(where: { $0 === helper }) { armDeadline(helper) }
        pump()
    }

    /// A helper died, hung or sent nonsense: its files go as `HelperEndingPolicy`
    /// says; the rest go back to the front of the line.
    private func helperEnded(_ helper: RunningHelper, why: HelperEndingPolicy.Ending) {
        dispatchPrecondition(condition: .onQueue(queue))
        helpers.removeAll { $0 === helper }
        let ending = end(helper, killing: why != .hungUp)
        var jobs = helper.inFlight
        helper.inFlight = []
        let verdict = HelperEndingPolicy.verdict(
            why, inFlight: jobs.count, headAnswerMayBeHeld: jobs.first?.answerMayBeHeld ?? false,
            headFailures: jobs.first?.failures ?? 0)
        switch verdict {
        case .noneBlamed:
            break
        case .eachAgainAlone:
            // Any idle helper will do: blamed for nothing yet, a job that meets another
            // helper ended by the same kill still has its second try.
            for job in jobs { job.alone = true }
        case .headAgainOnALaterHelper:
            jobs[0].failures += 1
            jobs[0].retryAfterHelper = helpersStarted
        case .refuseHead:
            let head = jobs.removeFirst()
            let failure: MediaError
            switch why {
            case .timedOut:
                failure = .readerTimedOut(path: head.path, seconds: Int(deadline(for: head)))
            case .misbehaved:
                failure = .readerFailed(path: head.path, what: "answered nonsense")
            case .hungUp:
                failure = .readerFailed(
                    path: head.path, what: ending.describe(memoryLimit: HelperLimits.addressSpace))
            }
            head.reads.complete(head.index, .failure(failure))
        }
        waiting[helper.kind, default: []].insert(contentsOf: jobs, at: 0)
    }

    /// Closes the helper's socket (it exits on the hang-up), kills it when asked, and reaps it.
    @discardableResult
    private func end(_ helper: RunningHelper, killing: Bool) -> HelperProcess.Ending {
        helper.deadline.cancel()
        helper.source.cancel()
        return killing ? helper.process.kill() : helper.process.reapAfterHangUp()
    }

    private func retire(_ helper: RunningHelper) {
        helpers.removeAll { $0 === helper }
        end(helper, killing: false)
    }

    /// A thumbnail decodes pixels (a video's frame, a large HEIC), so it has thrice the time.
    private func deadline(for job: Job) -> Double {
        HelperEndingPolicy.deadline(
            base: settings.deadlineSeconds, fileSize: job.file?.size ?? 0,
            bytesPerExtraSecond: settings.bytesPerExtraSecond, thumbnail: job.kind == .thumbnail)
    }

    /// The head of a helper's line has its deadline from when it got there; a helper
    /// with nothing to do has none.
    ///
    /// The timer is only ever moved earlier here: one armed for an earlier head fires
    /// before this head is due, and `deadlineReached` then waits for what is still
    /// due. Moving it for every answer woke Dispatch's timer thread once a file in
    /// a burst.
    private func armDeadline(_ helper: RunningHelper) {
        guard let head = helper.inFlight.first else {
            helper.headStart = nil
            if helper.armedUntil != nil { schedule(helper, at: nil) }
            return
        }
        let now = DispatchTime.now()
        helper.headStart = (now, HelperCPUTime.seconds(of: helper.process.pid) ?? 0)
        let due = now + deadline(for: head)
        if let armed = helper.armedUntil, armed <= due { return }
        schedule(helper, at: due)
    }

    /// Moves the helper's deadline timer (nil: parked, it never fires).
    private func schedule(_ helper: RunningHelper, at time: DispatchTime?) {
        helper.armedUntil = time
        helper.deadline.schedule(deadline: time ?? .distantFuture, leeway: .milliseconds(100))
    }

    /// The wall time of the head's deadline is up: the helper is killed when it spent
    /// that much CPU on it (a loop) or four times the wall time went by (it blocks);
    /// else (the machine is busy) the timer waits for the CPU time still due.
    private func deadlineReached(_ helper: RunningHelper) {
        guard let head = helper.inFlight.first, let start = helper.headStart else { return }
        let budget = deadline(for: head)
        let wall = Double(DispatchTime.now().uptimeNanoseconds - start.wall.uptimeNanoseconds) / 1e9
        let cpu = HelperCPUTime.seconds(of: helper.process.pid).map { $0 - start.cpu }
        switch HelperEndingPolicy.atDeadline(budget: budget, cpu: cpu, wall: wall) {
        case .end:
            helperEnded(helper, why: .timedOut)
            pump()
        case .lookAgain(let seconds):
            schedule(helper, at: .now() + seconds)
        }
    }

    private func armIdleTimer() {
        guard idleTimer == nil, !helpers.isEmpty else { return }
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + settings.idleSeconds, leeway: .seconds(1))
        timer.setEventHandler { @Sendable [unowned self] in
            self.idleTimer?.cancel()
            self.idleTimer = nil
            guard self.waiting.values.allSatisfy(\.isEmpty), self.helpers.allSatisfy({ $0.inFlight.isEmpty })
            else { return }
            for helper in self.helpers { self.end(helper, killing: false) }
            self.helpers = []
        }
        idleTimer = timer
        timer.activate()
    }

    private func stopped(_ job: Job) {
        job.reads.complete(job.index, .failure(.notReadBeforeStop(path: job.path)))
    }

    private func refuse(_ job: Job, _ reason: String) {
        job.reads.complete(job.index, .failure(.readerUnavailable(path: job.path, reason: reason)))
    }

    private func refuseWaiting(_ kind: HelperKind, _ reason: String) {
        for job in waiting[kind] ?? [] { refuse(job, reason) }
        waiting[kind] = []
    }
}

/// One request on its way through the pool.
///
/// `@unchecked Sendable`: made by the caller and handed to the pool's queue, which
/// alone touches it from then on.
private final class Job: @unchecked Sendable {
    let kind: HelperRequestKind
    let file: MediaFile?
    let path: BytePath
    let reads: PendingReads
    let index: Int
    /// The id it was sent with, to match the answer.
    var id: UInt32 = 0
    /// Helpers that died on it.
    var failures = 0
    /// After a helper died on it, the `serial` of the last helper started then: its
    /// second try is on a later one (0: any helper).
    var retryAfterHelper: UInt64 = 0
    /// The light helper answered that it needs a decoder (or a test asked for the full helper).
    var needsDecoders = false
    /// A thumbnail's request and the output file it travels with.
    var thumbnail: (request: ThumbnailRequest, output: FileDescriptor)?
    /// A helper ended while it could have held this job's answer: it goes to a helper
    /// with nothing in flight, and nothing joins it there, so the helper holds nothing.
    var alone = false

    /// Whether a helper may hold the answer back while more requests wait (`AnswerRuns`).
    var answerMayBeHeld: Bool { AnswerRuns.mayHold(kind, size: file?.size ?? 0) }

    /// Thumbnails decode pixels; the light helper reads the rest first.
    var helperKind: HelperKind { kind == .thumbnail || needsDecoders ? .full : .light }

    init(kind: HelperRequestKind, file: MediaFile?, probePath: BytePath?, reads: PendingReads, index: Int) {
        self.kind = kind
        self.file = file
        self.path = file?.path ?? probePath ?? ""
        self.reads = reads
        self.index = index
    }
}

/// A helper and the requests it has been sent, oldest (the one it is on) first.
///
/// `@unchecked Sendable`: touched only on the pool's queue (its dispatch sources'
/// handlers run there too).
private final class RunningHelper: @unchecked Sendable {
    let kind: HelperKind
    /// The order it was started in, from 1.
    let serial: UInt64
    let process: HelperProcess
    let source: DispatchSourceRead
    var inFlight: [Job] = []
    let deadline: DispatchSourceTimer
    var nextID: UInt32 = 0
    var served = 0
    /// When the head of `inFlight` got there, and the helper's CPU time then.
    var headStart: (wall: DispatchTime, cpu: Double)?
    /// When `deadline` fires; nil while it is parked.
    var armedUntil: DispatchTime?

    init(
        kind: HelperKind, serial: UInt64, process: HelperProcess, source: DispatchSourceRead,
        deadline: DispatchSourceTimer
    ) {
        self.kind = kind
        self.serial = serial
        self.process = process
        self.source = source
        self.deadline = deadline
    }
}
