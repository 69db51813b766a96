import Dispatch
import PhotoFilerMediaTypes
import PhotoFilerSystem

/// One file for a helper to read. The daemon opened it; the helper receives a
/// duplicate of `fd`, so `fd` must stay open until the answer is in.
public struct MediaFile: Sendable {
    public var fd: FileDescriptor
    public var path: BytePath
    public var size: Int64

    public init(fd: FileDescriptor, path: BytePath, size: Int64) {
        self.fd = fd
        self.path = path
        self.size = size
    }
}

/// The answers to a batch of requests, filled in by the pool as they arrive.
///
/// `@unchecked Sendable`: `answers` is written only on the pool's queue, each slot
/// once, before the group is left for it; it is read only after `group.wait()`,
/// which orders those writes before the read.
public final class PendingReads: @unchecked Sendable {
    private let group = DispatchGroup()
    private var answers: [Result<HelperAnswer, MediaError>?]
    let paths: [BytePath]
    private let libraryLog: (@Sendable (String) -> Void)?

    init(paths: [BytePath], libraryLog: (@Sendable (String) -> Void)?) {
        self.paths = paths
        self.libraryLog = libraryLog
        answers = Array(repeating: nil, count: paths.count)
        for _ in paths { group.enter() }
    }

    /// On the pool's queue, once per slot.
    func complete(_ index: Int, _ answer: Result<HelperAnswer, MediaError>) {
        answers[index] = answer
        group.leave()
    }

    /// Waits for every answer (never on the pool's queue).
    func waitForAnswers() -> [Result<HelperAnswer, MediaError>] {
        group.wait()
        return answers.map { $0! }
    }

    /// Runs `body` on `queue` with the answers once every one is in: nothing waits.
    public func notify(
        queue: DispatchQueue, _ body: @escaping @Sendable ([Result<MediaInfo, MediaError>]) -> Void
    ) {
        group.notify(queue: queue) { body(self.wait()) }
    }

    /// Waits for every answer to an `.inspect` batch: what each file is, or why it is refused.
    public func wait() -> [Result<MediaInfo, MediaError>] {
        zip(waitForAnswers(), paths).map { answer, path in
            switch answer {
            case .failure(let error): return .failure(error)
            case .success(let answer):
                for note in answer.notes { libraryLog?(note) }
                return Self.mediaInfo(answer, path: path)
            }
        }
    }

    private static func mediaInfo(_ answer: HelperAnswer, path: BytePath) -> Result<MediaInfo, MediaError> {
        do throws(WireError) {
            switch answer.outcome {
            case .value: return .success(try MediaInfo(wire: answer.body))
            case .refused: return .failure(try MediaError(wire: answer.body, path: path))
            case .unsupported:
                return .failure(
                    .readerUnavailable(path: path, reason: "photofiler-helper is of another version"))
            }
        } catch {
            return .failure(.readerFailed(path: path, what: "sent an answer that makes no sense"))
        }
    }
}
