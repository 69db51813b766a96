import PhotoFilerMediaTypes
import PhotoFilerSystem

/// What a request asks of a helper. Each kind has its own body; later kinds
/// (thumbnails, Live Photo identifiers) are new cases, and a helper answers a kind
/// it does not know with `.unsupported`, so the two sides can differ by a version.
package enum HelperRequestKind: UInt8, Sendable {
    /// Sniff the type, check the file is complete, read its metadata. The file's
    /// descriptor travels with the request; the answer is a `MediaInfo` or a refusal.
    case inspect = 1
    /// Decode the file once and encode the renditions a `ThumbnailRequest` lists. Two
    /// descriptors travel with it: the file, and an empty output file (the daemon's,
    /// in `.photofiler/tmp`) the helper writes the renditions into, one after another;
    /// the answer gives each one's size and length (`ThumbnailLayout`), or a refusal's reason.
    case thumbnail = 2
    /// Debug builds only: try to open a path from inside the sandbox. The answer is
    /// the errno (0 would mean the sandbox let it open).
    case probeOpen = 0xF0
}

/// A request as it travels over the socket (one datagram of a `SOCK_SEQPACKET`
/// pair): version, kind, id, then the kind's body.
package struct HelperRequest: Equatable {
    static let version: UInt8 = 1
    /// Requests and answers are small (a path, a `MediaInfo`, a few notes); anything
    /// larger is not ours.
    package static let largestMessage = 16 * 1024

    package var kind: HelperRequestKind
    package var id: UInt32
    package var body: [UInt8]

    package init(kind: HelperRequestKind, id: UInt32, body: [UInt8]) {
        self.kind = kind
        self.id = id
        self.body = body
    }

    /// `.inspect` of a file of `size` bytes; `path` only for the screenshot names and
    /// messages (the helper cannot open it).
    package static func inspect(id: UInt32, path: BytePath, size: Int64) -> HelperRequest {
        var body = WireWriter(reservingCapacity: 16 + path.bytes.count)
        body.bytes(path.bytes)
        body.integer(size)
        return HelperRequest(kind: .inspect, id: id, body: body.bytes)
    }

    /// `.thumbnail` of a file of `size` bytes.
    package static func thumbnail(id: UInt32, path: BytePath, size: Int64, request: ThumbnailRequest)
        -> HelperRequest
    {
        var body = WireWriter()
        body.bytes(path.bytes)
        body.integer(size)
        request.write(&body)
        return HelperRequest(kind: .thumbnail, id: id, body: body.bytes)
    }

    package static func probeOpen(id: UInt32, path: BytePath) -> HelperRequest {
        var body = WireWriter()
        body.bytes(path.bytes)
        return HelperRequest(kind: .probeOpen, id: id, body: body.bytes)
    }

    package var encoded: [UInt8] {
        var writer = WireWriter(reservingCapacity: 18 + body.count)
        writer.byte(Self.version)
        writer.byte(kind.rawValue)
        writer.integer(Int64(id))
        writer.bytes(body)
        return writer.bytes
    }

    /// The request, or nil with the id (when it got that far) of one the helper cannot serve.
    package static func decode(_ bytes: [UInt8]) -> Result<HelperRequest, UndecodableRequest> {
        var reader = WireReader(bytes)
        var id: UInt32?
        do throws(WireError) {
            guard try reader.byte() == version else { return .failure(UndecodableRequest(id: nil)) }
            let rawKind = try reader.byte()
            id = UInt32(truncatingIfNeeded: try reader.integer())
            guard let kind = HelperRequestKind(rawValue: rawKind), let id else {
                return .failure(UndecodableRequest(id: id))
            }
            return .success(HelperRequest(kind: kind, id: id, body: try reader.bytes(limit: largestMessage)))
        } catch {
            return .failure(UndecodableRequest(id: id))
        }
    }

    package struct UndecodableRequest: Error {
        package var id: UInt32?
    }

    /// The body of an `.inspect` request.
    package func inspectBody() throws(WireError) -> (path: BytePath, size: Int64) {
        var reader = WireReader(body)
        let path = BytePath(bytes: try reader.bytes(limit: 4096))
        let size = try reader.integer()
        guard size >= 0 else { throw .badValue }
        return (path, size)
    }

    /// The body of a `.thumbnail` request.
    package func thumbnailBody() throws(WireError) -> (path: BytePath, size: Int64, request: ThumbnailRequest)
    {
        var reader = WireReader(body)
        let path = BytePath(bytes: try reader.bytes(limit: 4096))
        let size = try reader.integer()
        guard size >= 0 else { throw .badValue }
        return (path, size, try ThumbnailRequest(&reader))
    }

    /// The body of a `.probeOpen` request.
    package func probeBody() throws(WireError) -> BytePath {
        var reader = WireReader(body)
        return BytePath(bytes: try reader.bytes(limit: 4096))
    }
}

/// A helper's answer to one request: version, the request's id, the outcome, its
/// body, and what the C libraries logged meanwhile (the daemon logs it at debug level).
package struct HelperAnswer: Equatable {
    package enum Outcome: UInt8, Sendable {
        /// The body is the kind's value (a `MediaInfo`, an errno).
        case value = 0
        /// The body is a refusal (`MediaError` without its path).
        case refused = 1
        /// The helper does not know the kind, or could not read the request.
        case unsupported = 2
    }

    /// What an answer carries of the libraries' messages, at most (each up to `longestNote` bytes).
    package static let mostNotes: Int64 = 8
    package static let longestNote = 512

    package var id: UInt32
    package var outcome: Outcome
    package var body: [UInt8]
    package var notes: [String]

    package init(id: UInt32, outcome: Outcome, body: [UInt8], notes: [String] = []) {
        self.id = id
        self.outcome = outcome
        self.body = body
        self.notes = notes
    }

    package var encoded: [UInt8] {
        var writer = WireWriter()
        writer.byte(HelperRequest.version)
        writer.integer(Int64(id))
        writer.byte(outcome.rawValue)
        writer.bytes(body)
        writer.integer(Int64(notes.count))
        for note in notes { writer.text(note) }
        return writer.bytes
    }

    package static func decode(_ bytes: [UInt8]) throws(WireError) -> HelperAnswer {
        var reader = WireReader(bytes)
        guard try reader.byte() == HelperRequest.version else { throw .badValue }
        let id = UInt32(truncatingIfNeeded: try reader.integer())
        guard let outcome = Outcome(rawValue: try reader.byte()) else { throw .badValue }
        let body = try reader.bytes(limit: HelperRequest.largestMessage)
        let count = try reader.integer()
        guard (0...Self.mostNotes).contains(count) else { throw .badLength }
        var notes: [String] = []
        for _ in 0..<count { notes.append(try reader.text(limit: longestNote)) }
        return HelperAnswer(id: id, outcome: outcome, body: body, notes: notes)
    }
}
