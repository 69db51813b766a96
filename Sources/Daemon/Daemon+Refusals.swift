import Dispatch
import PhotoFilerFiling
import PhotoFilerSystem

/// The refused inbox files, kept in the catalog across restarts so each is
/// reported once (photofiler(1) "Content decides"), not once a run. Runs on `queue`.
extension Daemon {
    /// The refusals of earlier runs whose file is still in place with the size it
    /// was refused at; the others (gone, or changed and so to be tried and
    /// reported anew) are dropped from the catalog. A file that cannot be looked
    /// at keeps its refusal: "could not look" is not "changed".
    func refusalsStillInPlace() -> [FileFingerprint] {
        dispatchPrecondition(condition: .onQueue(queue))
        let stored: [(path: BytePath, size: Int64)]
        do {
            stored = try library.catalog.refusedSources()
        } catch {
            log.warning("\(error) Files refused before this start may be reported again.")
            return []
        }
        var kept: [FileFingerprint] = []
        var settled: [BytePath] = []
        for refusal in stored {
            let status: FileStatus?
            do {
                status = try Sys.statusIfExists(refusal.path)
            } catch {
                kept.append(FileFingerprint(path: refusal.path, size: refusal.size))
                continue
            }
            if let status, status.isRegularFile, status.size == refusal.size {
                kept.append(FileFingerprint(path: refusal.path, size: refusal.size))
            } else {
                settled.append(refusal.path)
            }
        }
        forgetRefusals(settled)
        return kept
    }

    func rememberRefusal(_ fingerprint: FileFingerprint) {
        do {
            try library.catalog.recordRefusal(path: fingerprint.path, size: fingerprint.size)
        } catch {
            log.warning("\(error) '\(fingerprint.path.display)' may be reported again after a restart.")
        }
    }

    func forgetRefusals(_ paths: [BytePath]) {
        guard !paths.isEmpty else { return }
        do {
            try library.catalog.forgetRefusals(paths)
        } catch {
            log.warning("\(error) Their refusals are dropped at the next start.")
        }
    }
}
