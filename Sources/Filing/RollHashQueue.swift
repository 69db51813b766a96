import PhotoFilerCatalog
import PhotoFilerSystem

/// The roll files a comparison must read, hashed in batches on every core while
/// the catalog is read for the next batch (`OrderedHasher`). Each file is opened
/// by name in its open folder: no walk of the whole path per file.
final class RollHashQueue {
    /// One roll file to hash and what to compare it with.
    struct Request {
        var asset: AssetID
        /// 0 for a Live Photo's video, 1 for the asset's own file (`check`'s order).
        var order: Int
        var rollPath: BytePath
        var recorded: String
        /// Where the walk keeps the file (its inode is set from `fstat`).
        var file: Dictionary<BytePath, Reconciler.RollFile>.Index
    }

    /// A request and what hashing its file gave: its hash, or why it could not be read.
    struct Answer {
        var request: Request
        var hashed: OrderedHasher.Outcome
    }

    private let layout: LibraryLayout
    private let filer: Filer
    private let hasher = OrderedHasher()
    private let batchSize: Int
    private var filling: [Request] = []
    private var jobs: [OrderedHasher.Job] = []
    /// The folders the batch being filled opened (relative path → descriptor).
    private var fillingFolders: [BytePath: FileDescriptor] = [:]
    /// The folder of the last file queued: rows come in roll-path order.
    private var lastFolder: (path: BytePath, descriptor: FileDescriptor)?
    /// The batch the workers are hashing, and the folders it needs open.
    private var running: (requests: [Request], folders: [FileDescriptor])?

    /// Big enough that the workers rarely wait for the catalog, small enough that
    /// memory stays flat whatever the library's size.
    init(filer: Filer, batchSize: Int = 4096) {
        self.filer = filer
        self.layout = filer.layout
        self.batchSize = batchSize
        filling.reserveCapacity(batchSize)
        jobs.reserveCapacity(batchSize)
    }

    deinit {
        _ = hasher.collect()
        running?.folders.forEach { $0.close() }
        fillingFolders.values.forEach { $0.close() }
    }

    /// Queues one file; when a batch is full, starts it and returns the answers of
    /// the batch before it (their files' hashes, in the order they were queued).
    /// `folder` is the file's (relative) folder, as the caller has it already.
    func add(_ request: Request, in folder: BytePath) throws(FilingError) -> [Answer] {
        let descriptor: FileDescriptor
        if let last = lastFolder, last.path == folder {
            descriptor = last.descriptor
        } else if let open = fillingFolders[folder] {
            descriptor = open
        } else {
            descriptor = try filer.systemCall(layout.absolute(request.rollPath)) { () throws(SystemError) in
                try Sys.openDirectory(layout.absolute(folder))
            }
            fillingFolders[folder] = descriptor
        }
        lastFolder = (folder, descriptor)
        filling.append(request)
        jobs.append(OrderedHasher.Job(folder: descriptor, name: request.rollPath.lastComponent))
        guard filling.count >= batchSize else { return [] }
        let answers = try finishRunning()
        start()
        return answers
    }

    /// The answers of every file still queued or running, in order.
    func finish() throws(FilingError) -> [Answer] {
        var answers = try finishRunning()
        start()
        answers += try finishRunning()
        return answers
    }

    private func start() {
        guard !filling.isEmpty else { return }
        hasher.submit(jobs)
        running = (filling, Array(fillingFolders.values))
        filling.removeAll(keepingCapacity: true)
        jobs.removeAll(keepingCapacity: true)
        fillingFolders.removeAll(keepingCapacity: true)
        lastFolder = nil
    }

    /// Waits for the running batch. A file that could not be read is that file's
    /// answer, unless the process ran short (descriptors, say): every file would fail
    /// the same way, so that is the error.
    private func finishRunning() throws(FilingError) -> [Answer] {
        guard let batch = running else { return [] }
        let outcomes = hasher.collect()
        batch.folders.forEach { $0.close() }
        running = nil
        var answers: [Answer] = []
        answers.reserveCapacity(outcomes.count)
        for (request, outcome) in zip(batch.requests, outcomes) {
            if case .failure(let error) = outcome {
                let failure = FilingError.from(
                    error, library: layout, source: layout.absolute(request.rollPath))
                if failure.shortage != nil { throw failure }
            }
            answers.append(Answer(request: request, hashed: outcome))
        }
        return answers
    }
}
