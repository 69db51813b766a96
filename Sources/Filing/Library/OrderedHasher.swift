import Dispatch
import PhotoFilerSystem
import Synchronization

/// Hashes batches of files on every core (`check` reads every roll file): each
/// worker has its own buffer, and a batch's results come back in the order its
/// files were given, so what `check` reports does not depend on which worker read
/// which file. One batch runs while its owner prepares the next (`submit`, then
/// `collect`); the owner confines the hasher to one thread.
package final class OrderedHasher {
    /// One file to hash: its name in an open folder, which the owner keeps open
    /// until the batch is collected.
    package struct Job: Sendable {
        package var folder: FileDescriptor
        package var name: BytePath

        package init(folder: FileDescriptor, name: BytePath) {
            self.folder = folder
            self.name = name
        }
    }

    /// What reading one file gave: its SHA-256, the bytes read, and its inode (`fstat`).
    package struct Hashed: Sendable, Equatable {
        package var hash: String
        package var size: Int64
        package var inode: UInt64
    }

    package typealias Outcome = Result<Hashed, SystemError>

    private let workers: [Worker]
    private var running: (batch: Batch, group: DispatchGroup)?

    /// `workers` defaults to the processors online: hashing a small file is mostly
    /// system calls, which run on every core at once.
    package init(workers: Int = Sys.processorsOnline(), bufferSize: Int = 1 << 20) {
        self.workers = (0..<max(1, workers)).map { _ in Worker(bufferSize: bufferSize) }
    }

    deinit { _ = collect() }

    /// Starts hashing `jobs` in the background; `collect` waits for the results.
    /// One batch at a time: the one before must have been collected.
    package func submit(_ jobs: [Job]) {
        precondition(running == nil, "OrderedHasher: collect the running batch before submitting another")
        let batch = Batch(jobs)
        let group = DispatchGroup()
        for worker in workers {
            DispatchQueue.global().async(group: group) { @Sendable in worker.run(batch) }
        }
        running = (batch, group)
    }

    /// The running batch's results, one per job in the order given (empty when none runs).
    package func collect() -> [Outcome] {
        guard let (batch, group) = running else { return [] }
        group.wait()
        running = nil
        return batch.results()
    }

    /// Hashes `jobs` and waits for them.
    package func hash(_ jobs: [Job]) -> [Outcome] {
        _ = collect()
        submit(jobs)
        return collect()
    }

    /// One batch's jobs and result slots, shared by the workers.
    ///
    /// `@unchecked Sendable`: `jobs` never changes; each slot of `slots` is written
    /// by the one worker that claimed its index from `next` (an atomic counter, so
    /// no index is claimed twice), and read by the owner only after every worker
    /// has left the batch's dispatch group (`collect` waits on it).
    private final class Batch: @unchecked Sendable {
        let jobs: [Job]
        let slots: UnsafeMutableBufferPointer<Outcome?>
        let next = Atomic<Int>(0)

        init(_ jobs: [Job]) {
            self.jobs = jobs
            slots = .allocate(capacity: jobs.count)
            slots.initialize(repeating: nil)
        }

        deinit {
            slots.deinitialize()
            slots.deallocate()
        }

        func results() -> [Outcome] { slots.map { $0! } }
    }

    /// One worker and its read buffer.
    ///
    /// `@unchecked Sendable`: its `ContentCopier` (and buffer) is used only inside
    /// `run`, and one worker runs one batch at a time: `submit` starts a worker's
    /// `run` once per batch, and a batch is started only after the one before was
    /// collected (waited for).
    private final class Worker: @unchecked Sendable {
        let copier: ContentCopier

        init(bufferSize: Int) { copier = ContentCopier(bufferSize: bufferSize) }

        /// Claims indices a few at a time (fewer atomic operations) until none is left.
        func run(_ batch: Batch) {
            let stride = 16
            while true {
                let start = batch.next.add(stride, ordering: .relaxed).oldValue
                guard start < batch.jobs.count else { return }
                for index in start..<min(start + stride, batch.jobs.count) {
                    batch.slots[index] = hash(batch.jobs[index])
                }
            }
        }

        private func hash(_ job: Job) -> Outcome {
            do throws(SystemError) {
                let fd = try Sys.openForReading(job.name, in: job.folder)
                defer { fd.close() }
                let status = try fd.status()
                let read = try copier.hash(fd, path: job.name, size: status.size)
                return .success(Hashed(hash: read.hash, size: read.size, inode: status.inode))
            } catch {
                return .failure(error)
            }
        }
    }
}
