import Dispatch
import PhotoFilerFiling
import PhotoFilerSystem

/// Performs the filing queue's actions: a group goes to `inspectionQueue` to be
/// opened, sniffed and hashed while the previous one is filed here, a turn of the
/// queue each, so signals and events are handled between two groups. Runs on `queue`.
extension Daemon {

    /// Gives the filing queue an event now and performs what it returns.
    func feed(_ event: FilingQueue.Event, at now: UInt64 = DeadlineTimer.now) {
        dispatchPrecondition(condition: .onQueue(queue))
        let inboxes = self.inboxes
        perform(filing.handle(event, at: now, request: inboxes.request(for:)), inspected: [])
        rearm()
    }

    /// `inspections` are the descriptors and hashes of the group that came back, for `.file`.
    private func perform(_ actions: [FilingQueue.Action], inspected inspections: [Inspection]) {
        // A group's lines (one a file) are written together, in order with what the other actions log.
        var lines: [(level: LogLevel, message: String)] = []
        defer { log.log(lines) }
        for action in actions {
            if case .log(let level, let line) = action {
                lines.append((level, line))
                continue
            }
            log.log(lines)
            lines.removeAll()
            switch action {
            case .inspect(let requests):
                inspect(requests)
            case .file(let requests):
                let results = library.filer.file(inspected: inspections, requests: requests) {
                    self.stopRequested.load(ordering: .relaxed)
                }
                let outcomes = zip(requests, results).map { request, result in
                    (request, FilingOutcome(result, layout: library.layout) { fingerprint(request.source) })
                }
                feed(.filed(outcomes))
                // Changed after it was read and left in its inbox: filed again once it settles
                // (a duplicate then, when only its times changed).
                let stayed = zip(requests, results).compactMap { request, result in
                    (try? result.get())?.sourceStayedChanged == true ? request.source : nil
                }
                if !stayed.isEmpty { feed(.found(stayed, unreadAfter: nil)) }
            case .discardInspected:
                for case .ready(let file) in inspections { file.fd.close() }
            case .log:
                break  // gathered above
            case .recordError(let text):
                lastError = text
            case .makeThumbnails(let ids, let filingBusy):
                thumbnails?.add(ids, filingBusy: filingBusy)
            case .announceStatus:
                notifier.status(statusLine())
            case .rememberRefusal(let fingerprint):
                rememberRefusal(fingerprint)
            case .forgetRefusals(let paths):
                forgetRefusals(paths)
            }
        }
    }

    /// Inspects a group on `inspectionQueue`; back on `queue`, the queue is told.
    private func inspect(_ requests: [FilingRequest]) {
        inspectionQueue.async { @Sendable [unowned self] in
            // Safe: `inspector` is only ever used on `inspectionQueue`.
            self.inspector.inspect(
                requests, stop: { self.stopRequested.load(ordering: .relaxed) },
                finishingOn: self.inspectionQueue
            ) { @Sendable [unowned self] inspections in
                self.queue.async { @Sendable [unowned self] in self.inspected(inspections) }
            }
        }
    }

    private func inspected(_ inspections: [Inspection]) {
        dispatchPrecondition(condition: .onQueue(queue))
        let inboxes = self.inboxes
        let actions = filing.handle(.inspected, at: DeadlineTimer.now, request: inboxes.request(for:))
        perform(actions, inspected: inspections)
        stateChanged()
    }

    /// The refused file as "the same file" goes for reporting it once.
    private func fingerprint(_ path: BytePath) -> FileFingerprint {
        // Unreadable now: one fingerprint of its own (-1), reported once until it can be read.
        let status = try? Sys.status(path)
        return FileFingerprint(path: path, size: status?.size ?? -1)
    }
}
