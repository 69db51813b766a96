import Dispatch
import Foundation
import Glibc
import PhotoFilerFiling
import PhotoFilerSystem
import PhotoFilerWatching

/// Settled paths are filed in groups, a turn of the queue each, so signals and
/// events are handled between two groups. Runs on `queue`.
extension Daemon {

    package func enqueue(_ paths: [BytePath]) {
        dispatchPrecondition(condition: .onQueue(queue))
        for path in paths where workSet.insert(path).inserted { work.append(path) }
        kick()
    }

    /// Starts inspecting the next group unless one is already out: inspection of
    /// group N+1 (on `inspectionQueue`) overlaps the filing of group N (here).
    package func kick() {
        dispatchPrecondition(condition: .onQueue(queue))
        guard !inspecting, !held, !stopping, !work.isEmpty else { return }
        // One group per turn: its files share the fsyncs and the catalog commit.
        var group: [(path: BytePath, request: FilingRequest)] = []
        while group.count < Self.filesPerTurn, !work.isEmpty {
            let path = work.removeFirst()
            workSet.remove(path)
            if let request = request(for: path) { group.append((path, request)) }
        }
        guard !group.isEmpty else { return }
        inspecting = true
        let requests = group.map(\.request)
        let taken = group
        inspectionQueue.async { @Sendable [unowned self] in
            // Safe: `inspector` is only ever used on `inspectionQueue`.
            self.inspector.inspect(
                requests, skip: { self.inspectionCancelled.load(ordering: .relaxed) },
                finishingOn: self.inspectionQueue
            ) { @Sendable [unowned self] inspections in
                self.queue.async { @Sendable [unowned self] in self.file(taken, inspected: inspections) }
            }
        }
    }

    /// Files an inspected group, after sending the next one to be inspected; then
    /// yields the queue (signals, events) before the next group.
    package func file(
        _ group: [(path: BytePath, request: FilingRequest)], inspected inspections: [Inspection]
    ) {
        dispatchPrecondition(condition: .onQueue(queue))
        inspecting = false
        if stopping {
            for case .ready(let file) in inspections { file.fd.close() }
            return
        }
        kick()
        let results = library.filer.file(inspected: inspections, requests: group.map(\.request))
        for (item, result) in zip(group, results) {
            report(result, path: item.path, album: item.request.album)
        }
        // The group is durable now: its thumbnails may be made, once filing has nothing in hand.
        thumbnails?.add(results.compactMap(\.needsThumbnails), filingBusy: !work.isEmpty || inspecting)
        if var backlog = progress {
            if let snapshot = backlog.advance(by: group.count, now: Self.seconds()) {
                log.info(snapshot.line("Start-up backlog"))
            }
            progress = backlog.isComplete ? nil : backlog
        }
        if work.count > 0 && work.count % 500 == 0 { notifier.status(statusLine()) }
        if work.isEmpty && !inspecting { notifier.status(statusLine()) }
        stateChanged()
    }

    /// What filing `path` means, from its inbox's settings; nil when it is no longer to be filed.
    package func request(for path: BytePath) -> FilingRequest? {
        guard let root = inboxRoot(for: path), let inbox = inboxes[root] else { return nil }
        if TemporaryName.matches(path) || TemporaryName.isInHiddenFolder(path, below: root) { return nil }
        return FilingRequest(
            source: path, album: inbox.name, origin: inbox.name.value,
            mode: keeps(inbox) ? .keep : .move,
            link: configuration.effectiveLink(for: inbox))
    }

    /// Logs what filing `path` did (or handles its failure).
    package func report(_ outcome: Result<FilingResult, FilingError>, path: BytePath, album: AlbumName?) {
        let albumName = album?.value ?? ""
        let result: FilingResult
        switch outcome {
        case .success(let value):
            result = value
            reported.remove("shortage")  // room again: a later full disk is reported anew
        case .failure(let error):
            handleFailure(error, path: path)
            return
        }
        if result.outcome == .alreadySeen {
            log.debug("'\(path.display)' was filed before with these bytes; it is not filed again.")
            return
        }
        guard let asset = result.asset else { return }
        let rollPath = library.layout.absolute(result.rollPath ?? asset.rollPath).display
        switch result.outcome {
        case .filed:
            filedCount += 1
            log.info("Filed '\(path.display)' → '\(rollPath)' (album \(albumName)).")
        case .duplicate(let joined):
            log.info(
                "'\(path.display)' is already asset \(asset.id) ('\(rollPath)')\(joined ? "; added to the album \(albumName)" : "; nothing new to file")."
            )
        case .restored:
            filedCount += 1
            log.info(
                "'\(path.display)' brought asset \(asset.id) back from Recently Deleted → '\(rollPath)' (album \(albumName))."
            )
        case .alreadySeen:
            break
        }
    }

    package func handleFailure(_ error: FilingError, path: BytePath) {
        switch error {
        case .vanished:
            return
        case .media(.empty):
            // A placeholder (a browser's, an app's) is expected, not an error:
            // its content, when it comes, brings a close or a rename.
            log.debug(error.description)
            return
        case .changedWhileFiling:
            debounce.found([path])
            return
        case _ where error.shortage != nil:
            lastError = error.description
            if reported.insert("shortage").inserted { log.error(error.description) }
            // Keep it and retry soon: filing resumes by itself once there is room.
            if workSet.insert(path).inserted { work.insert(path, at: 0) }
            scheduleRetry()
            return
        default:
            lastError = error.description
            let status = try? Sys.status(path)
            let key = "\(path.display)|\(status?.size ?? -1)|\(status?.modificationNanoseconds ?? -1)"
            if reported.insert(key).inserted {
                log.error(error.description)
                if let detail = error.detail { log.debug(detail) }
            }
        }
    }

    package func scheduleRetry() {
        guard retryTimer == nil else { return }
        held = true  // hold the work list until the retry
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + .seconds(5))
        timer.setEventHandler { @Sendable [unowned self] in
            self.retryTimer?.cancel()
            self.retryTimer = nil
            self.held = false
            self.kick()
        }
        retryTimer = timer
        timer.activate()
    }
}
