import FoundationEssentials
import Glibc
import PhotoFilerMedia
import PhotoFilerMediaTypes
import PhotoFilerSandbox
import PhotoFilerSystem
import Synchronization

/// The helper's side of the protocol: one request in, one answer out.
///
/// `answer(_:descriptor:)` is the whole entry point for strangers' bytes (the fuzz
/// target calls it too); `run(decoders:)` is a helper process, the light one or the
/// full one: start the libraries, lock down, then answer until the daemon hangs up.
package final class HelperServer {
    private let reader: Result<MediaReader, MediaError>
    /// The thumbnails' decoders; nil in the light helper, which answers `unsupported`.
    private let decoders: Result<any MediaDecoders, MediaError>?
    /// Set when the lockdown failed: then nothing is read at all.
    private var unsafe: String?

    /// `makeDecoders` starts libvips, libheif and libavformat (`photofiler-helper`);
    /// nil for the light helper, which maps none of them.
    package init(decoders makeDecoders: (() throws(MediaError) -> any MediaDecoders)?) {
        decoders = makeDecoders.map { make in Result { () throws(MediaError) in try make() } }
        switch decoders {
        case .failure(let error): reader = .failure(error)
        case .success(let decoders):
            reader = Result { () throws(MediaError) in try MediaReader(decoders: decoders) }
        case nil: reader = Result { () throws(MediaError) in try MediaReader(decoders: nil) }
        }
        MediaLibraryLog.setSink { @Sendable note in Self.notes.withLock { $0.append(note) } }
        warmUp()
    }

    /// What the C libraries logged while the current request was answered.
    private static let notes = Mutex<[String]>([])

    /// `photofiler-helper __helper` (or `photofiler-helper-light __helper`), started by
    /// the daemon with its socket at fd 3. Its `main` has set the environment the
    /// decoders' plug-ins are found by, while the process had no other thread.
    /// The answers to quick requests go in runs while more wait (`AnswerRuns`).
    package static func run(decoders makeDecoders: (() throws(MediaError) -> any MediaDecoders)?) -> Never {
        let socket = FileDescriptor(rawValue: HelperExecutable.socketDescriptor)
        // Before any thread starts, so the decoders' threads cannot spend RLIMIT_AS on
        // arenas under contention. (Seen twice on a machine at load 20, not reproduced
        // alone: libheif's decoder failing on a good HEIC; this is the likely cause.)
        Sys.limitMallocArenas(2)
        // Freed decoder planes go back to the system at once, not into the next peak.
        Sys.mapLargeAllocations(from: 1 << 20)
        Sys.keepFreedHeap(upTo: 4 << 20)
        let server = HelperServer(decoders: makeDecoders)
        do throws(LockdownError) {
            try Lockdown.apply(socket: socket)
        } catch {
            server.unsafe = "the sandbox could not be set up: \(error)"
        }
        var held: [[UInt8]] = []
        while true {
            let message: (bytes: [UInt8], descriptors: [FileDescriptor])?
            do {
                message = try Sys.receiveMessage(socket, limit: HelperRequest.largestMessage)
            } catch  where error.errno.rawValue == EMSGSIZE {
                continue  // an oversized request: dropped; the daemon's deadline notices
            } catch {
                exit(1)  // no socket at fd 3: not started by photofiler
            }
            guard let message else { exit(0) }  // the daemon hung up: idle, or gone
            let request = HelperRequest.decode(message.bytes)
            let mayHold = (try? request.get()).map(AnswerRuns.mayHold) ?? false
            // A long request does not start with answers held: their deadlines run meanwhile.
            if !mayHold { send(&held, on: socket) }
            held.append(
                server.answer(
                    request, descriptor: message.descriptors.first,
                    output: message.descriptors.dropFirst().first))
            for descriptor in message.descriptors { descriptor.close() }
            if mayHold, held.count < AnswerRuns.longest, socket.hasInput { continue }
            send(&held, on: socket)
        }
    }

    /// Sends the answers held, in order; a daemon that is gone ends the helper.
    private static func send(_ held: inout [[UInt8]], on socket: FileDescriptor) {
        do {
            for answer in held { try Sys.sendMessage(socket, answer) }
        } catch {
            exit(0)
        }
        held.removeAll(keepingCapacity: true)
    }

    /// The answer to one request (`descriptor` is the file it came with, `output` a
    /// thumbnail's output file). Never throws: a refusal is an answer.
    package func answer(_ message: [UInt8], descriptor: FileDescriptor?, output: FileDescriptor? = nil)
        -> [UInt8]
    {
        answer(HelperRequest.decode(message), descriptor: descriptor, output: output)
    }

    /// `answer` for a request decoded already.
    private func answer(
        _ decoded: Result<HelperRequest, HelperRequest.UndecodableRequest>, descriptor: FileDescriptor?,
        output: FileDescriptor?
    ) -> [UInt8] {
        let request: HelperRequest
        switch decoded {
        case .success(let decoded): request = decoded
        case .failure(let failure):
            return HelperAnswer(id: failure.id ?? 0, outcome: .unsupported, body: []).encoded
        }
        switch request.kind {
        case .inspect:
            guard let descriptor, let (path, size) = try? request.inspectBody() else {
                return HelperAnswer(id: request.id, outcome: .unsupported, body: []).encoded
            }
            #if DEBUG
                HelperFaults.trigger(descriptor)
            #endif
            let result = inspect(descriptor, path: path, size: size)
            let notes = Self.takeNotes()
            switch result {
            case .success(let info):
                return HelperAnswer(id: request.id, outcome: .value, body: info.wire, notes: notes).encoded
            case .failure(.needsDecoders):
                // Not a refusal: the pool asks a helper with the decoders.
                return HelperAnswer(id: request.id, outcome: .unsupported, body: [], notes: notes).encoded
            case .failure(let error):
                return HelperAnswer(id: request.id, outcome: .refused, body: error.wire, notes: notes).encoded
            }
        case .thumbnail:
            // The light helper has no decoder to make one with.
            guard let decoders, let descriptor, let output,
                let (_, size, thumbnail) = try? request.thumbnailBody()
            else {
                return HelperAnswer(id: request.id, outcome: .unsupported, body: []).encoded
            }
            let result = makeThumbnails(with: decoders, descriptor, size: size, thumbnail, into: output)
            let notes = Self.takeNotes()
            switch result {
            case .success(let layout):
                return HelperAnswer(id: request.id, outcome: .value, body: layout.wire, notes: notes).encoded
            case .failure(let failure):
                var body = WireWriter()
                body.text(String(decoding: failure.reason.utf8.prefix(1000), as: UTF8.self))
                return HelperAnswer(id: request.id, outcome: .refused, body: body.bytes, notes: notes).encoded
            }
        case .probeOpen:
            #if DEBUG
                guard let path = try? request.probeBody() else {
                    return HelperAnswer(id: request.id, outcome: .unsupported, body: []).encoded
                }
                var body = WireWriter()
                do {
                    let fd = try Sys.openForReading(path)
                    fd.close()
                    body.integer(0)
                } catch {
                    body.integer(Int64(error.errno.rawValue))
                }
                return HelperAnswer(id: request.id, outcome: .value, body: body.bytes).encoded
            #else
                return HelperAnswer(id: request.id, outcome: .unsupported, body: []).encoded
            #endif
        }
    }

    /// What the C libraries logged while the current request was answered, cut to
    /// what an answer carries.
    private static func takeNotes() -> [String] {
        notes.withLock { notes in
            defer { notes = [] }
            // A cut inside a character becomes one U+FFFD (3 bytes for the 1–3 cut off).
            return notes.prefix(Int(HelperAnswer.mostNotes)).map {
                String(decoding: $0.utf8.prefix(HelperAnswer.longestNote - 2), as: UTF8.self)
            }
        }
    }

    /// Encodes the renditions and writes them into `output`, one after another.
    private func makeThumbnails(
        with started: Result<any MediaDecoders, MediaError>, _ fd: FileDescriptor, size: Int64,
        _ request: ThumbnailRequest, into output: FileDescriptor
    ) -> Result<ThumbnailLayout, ThumbnailFailure> {
        if let unsafe { return .failure(ThumbnailFailure(unsafe)) }
        let decoders: any MediaDecoders
        switch started {
        case .failure(let error): return .failure(ThumbnailFailure(error.description))
        case .success(let value): decoders = value
        }
        // An emptied file: libvips 8.14 takes an empty descriptor for a pipe and
        // aborts on an assertion (found by make sanitize's fuzz run).
        guard size > 0 else { return .failure(ThumbnailFailure("it is empty")) }
        do throws(ThumbnailFailure) {
            let made = try decoders.thumbnails(fd, size: size, request)
            var parts: [ThumbnailLayout.Part] = []
            for thumbnail in made {
                do {
                    try output.writeAll(thumbnail.bytes)
                } catch {
                    throw ThumbnailFailure("the thumbnail could not be written: \(error)")
                }
                parts.append(
                    ThumbnailLayout.Part(
                        width: thumbnail.width, height: thumbnail.height, length: Int64(thumbnail.bytes.count)
                    ))
            }
            return .success(ThumbnailLayout(parts: parts))
        } catch {
            return .failure(error)
        }
    }

    private func inspect(_ fd: FileDescriptor, path: BytePath, size: Int64) -> Result<MediaInfo, MediaError> {
        if let unsafe { return .failure(.libraryUnavailable(name: "photofiler-helper", reason: unsafe)) }
        switch reader {
        case .failure(let error): return .failure(error)
        case .success(let reader):
            do {
                return .success(try reader.read(fd, path: path, size: size))
            } catch {
                return .failure(error)
            }
        }
    }

    /// What would otherwise load on first use, once the filter forbids opening it:
    /// the time zone's rules (dates without an offset are read in it). Checked with
    /// `strace -f` over the corpus: after the filter the helper makes no call that it refuses.
    private func warmUp() {
        tzset()  // glibc reads /etc/localtime once; LocalZone, libavformat and exiv2 reuse it
        let zone = LocalZone()
        for seconds in [0, 1_000_000_000, 1_700_000_000] {
            _ = zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(seconds)))
        }
        _ = CaptureDates.fromExif("2021:05:06 07:08:09", offset: nil)
        _ = CaptureDates.fromFileName("IMG_20210506_070809.jpg")
    }
}
