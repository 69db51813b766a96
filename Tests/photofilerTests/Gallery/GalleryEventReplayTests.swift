import Foundation
import PhotoFilerCatalog
import PhotoFilerSystem
import TestSupport
import Testing

/// `/api/events` across a reconnect: every event carries its change's sequence as
/// `id:`, and a client that comes back with `Last-Event-ID` gets what it missed.
@Suite struct GalleryEventReplayTests {
    /// Every `id: N` line received, in order (lines split at `\n` and at the chunks' `\r\n`).
    static func ids(_ received: String) -> [Int64] {
        received.split(whereSeparator: \.isNewline).compactMap { line in
            line.hasPrefix("id: ") ? Int64(line.dropFirst(4)) : nil
        }
    }

    /// The last `id: N` received (an event's, or the position a stream opens with).
    static func lastID(_ received: String) -> Int64? { ids(received).last }

    /// A stream that has received its opening position.
    static func opened(_ server: GalleryProcess, lastEventID: String? = nil) throws -> EventStreamReader {
        let stream = try EventStreamReader(
            port: server.port, headers: lastEventID.map { ["Last-Event-ID": $0] } ?? [:])
        #expect(try stream.wait(timeout: 10) { $0.contains(/id: [0-9]+\n\n/) })
        return stream
    }

    @Test func aReconnectGetsTheChangesItMissed() throws {
        let library = try GalleryAPITests.library(count: 1)
        let server = try GalleryProcess(library: library.root)
        var stream: EventStreamReader? = try Self.opened(server)
        let last = try #require(Self.lastID(stream!.received), "a stream opens with the newest id")
        stream = nil  // the browser loses its connection

        // Saved and made a favorite while it is away; another client proves the server has read the changes.
        let watcher = try Self.opened(server)
        let file = try library.input(bytes: Pictures.uniqueJPEG(40, tag: "replay"), name: "away.jpg")
        let id = try #require(try library.save([file], album: "Trip").first)
        #expect(try library.run("favorite", String(id)).status == 0)
        #expect(try watcher.wait(timeout: 5) { $0.contains("event: changed\ndata: {\"id\": \(id)}") })
        let newest = try #require(Self.lastID(watcher.received))

        let back = try Self.opened(server, lastEventID: String(last))
        let replayed = back.received
        #expect(replayed.contains("event: filed\ndata: {\"id\": \(id)}"), "\(replayed)")
        #expect(replayed.contains("event: changed\ndata: {\"id\": \(id)}"), "the favorite")
        #expect(
            replayed.components(separatedBy: "event: changed").count == 2,
            "filing into Trip was no change of its own")
        #expect(!replayed.contains("event: reset"))
        // Only what came after its last id, in order: the library's first assets are not sent again.
        let ids = Self.ids(replayed)
        #expect(ids.allSatisfy { $0 > last } && ids == ids.sorted(), "\(ids)")
        #expect(ids.last.map { $0 >= newest } == true, "it opens at the newest change")

        // Up to date: nothing replayed, only the position.
        let current = try Self.opened(server, lastEventID: String(try #require(ids.last)))
        #expect(!current.received.contains("event: "))
    }

    @Test(arguments: ["999999999", "not-a-number", "-1"])
    func anIDFromElsewhereIsAReset(_ lastEventID: String) throws {
        let library = try GalleryAPITests.library(count: 1)
        let server = try GalleryProcess(library: library.root)
        let stream = try Self.opened(server, lastEventID: lastEventID)
        #expect(stream.received.contains("event: reset\ndata: {}"), "\(stream.received)")
    }

    @Test func changesGoneFromTheLogAreAReset() throws {
        let library = try GalleryAPITests.library(count: 2)
        let server = try GalleryProcess(library: library.root)
        let first = try Self.opened(server)
        let last = try #require(Self.lastID(first.received))
        let ids = try library.list().compactMap(assetID)
        // More changes than the log keeps (4,096), as other processes would make them.
        let catalog = try Catalog(path: library.catalog)
        try catalog.transaction {
            for round in 0..<2_100 {
                for id in ids { try catalog.setFavorite(round % 2 == 0, of: id) }
            }
        }
        #expect(
            try first.wait(timeout: 10) { Self.lastID($0).map { $0 >= last + 4_200 } == true },
            "\(first.received.suffix(400))")
        let back = try Self.opened(server, lastEventID: String(last))
        #expect(back.received.contains("event: reset\ndata: {}"), "\(back.received.suffix(300))")
        #expect(back.received.components(separatedBy: "event: ").count == 2, "one reset, nothing else")
    }
}
