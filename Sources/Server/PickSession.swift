import PhotoFilerCatalog

/// `photofiler pick`: the filter its page shows, and the one choice it waits for
/// (Add or Cancel), reported once the answer has been sent.
///
/// `@unchecked Sendable`: `decided` is guarded by `lock`; the rest is immutable.
public final class PickSession: @unchecked Sendable {
    public enum Outcome: Sendable, Equatable {
        case picked([AssetID])
        case cancelled
    }

    public let filter: PickFilter
    private let onDone: @Sendable (Outcome) -> Void
    private let lock = ThreadLock()
    private var decided = false

    public init(filter: PickFilter, onDone: @escaping @Sendable (Outcome) -> Void) {
        self.filter = filter
        self.onDone = onDone
    }

    /// `POST /api/pick?ids=1,2` (Add) or `POST /api/pick/cancel`.
    func choose(_ action: String?, request: HTTPRequest, gallery: Gallery) throws -> HTTPResponse {
        let outcome: Outcome
        switch action {
        case "cancel": outcome = .cancelled
        case nil: outcome = .picked(try filter.pickedIDs(request, gallery: gallery))
        default: return .error(404, "The picker has no action '\(action ?? "")'.")
        }
        let first = lock.withLock {
            defer { decided = true }
            return !decided
        }
        guard first else { return .error(409, "The choice has been made already.") }
        var response = HTTPResponse.noContent()
        let onDone = self.onDone
        response.afterSent = { onDone(outcome) }
        return response
    }
}
