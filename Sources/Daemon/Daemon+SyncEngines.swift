import Dispatch
import PhotoFilerSystem

/// Inboxes that a sync engine owns keep their files unless the config says
/// `keep = false`. Runs on `queue`.
extension Daemon {
    /// Whether filing leaves this inbox's files in place.
    func keeps(_ inbox: InboxConfiguration) -> Bool {
        configuration.effectiveKeep(for: inbox, syncedBy: syncEngines[inbox.path])
    }

    /// Looks for a sync engine's marker in the inbox and says, once, what follows from it.
    func detectSyncEngine(_ inbox: InboxConfiguration) {
        dispatchPrecondition(condition: .onQueue(queue))
        let engine = SyncEngine.owning(inbox.path)
        guard engine != syncEngines[inbox.path] else { return }
        syncEngines[inbox.path] = engine
        guard let engine else { return }
        let folder =
            "The inbox '\(inbox.path.display)' (\(inbox.name.value)) is synced by \(engine.rawValue) (\(engine.marker))"
        if configuration.keep ?? inbox.keep == false {
            log.info("\(folder); its config says keep = false, so filed files are moved out of it.")
        } else {
            log.info(
                "\(folder): its files are left in place (keep mode), since moving them out would make \(engine.rawValue) delete them on the other device or fetch them again. Set keep = false in its [inbox \(inbox.name.value)] group to move them anyway."
            )
        }
    }
}
