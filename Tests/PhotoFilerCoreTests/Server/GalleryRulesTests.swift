import PhotoFilerCatalog
import PhotoFilerFiling
import PhotoFilerSystem
import Testing

@testable import PhotoFilerServer

/// The gallery's pure rules, as tables: ranges, Host names, cursors, addresses.
@Suite struct GalleryRulesTests {
    @Test(
        arguments: [
            (nil, ByteRange.whole), ("bytes=0-9", .part(0..<10)), ("bytes=90-", .part(90..<100)),
            ("bytes=-10", .part(90..<100)), ("bytes=-500", .part(0..<100)), ("bytes=95-200", .part(95..<100)),
            ("bytes=100-", .unsatisfiable), ("bytes=-0", .unsatisfiable), ("bytes=0-1,5-6", .whole),
            ("items=0-9", .whole), ("bytes=a-b", .whole), ("bytes=9-3", .whole),
            ("bytes=0-9223372036854775807", .part(0..<100)),
            ("bytes=99-9223372036854775807", .part(99..<100)),
        ] as [(String?, ByteRange)])
    func rangesOfAHundredByteFile(_ header: String?, _ expected: ByteRange) {
        #expect(ByteRange.parse(header, size: 100) == expected)
    }

    @Test func hostNamesOfALoopbackListener() throws {
        var policy = try AccessPolicy(address: ListenAddress(ipv4: 0x7F00_0001, port: 8765), token: nil)
        policy.port = 8765
        for host in ["127.0.0.1:8765", "localhost:8765", "127.0.0.1", "LocalHost:8765"] {
            #expect(policy.acceptsHost(host), "\(host)")
        }
        for host in [
            nil, "", "evil.example", "evil.example:8765", "127.0.0.1:8766", "127.0.0.2:8765",
            "localhost.evil:8765",
        ] {
            #expect(!policy.acceptsHost(host), "\(host ?? "none")")
        }
    }

    @Test func aWildcardListenerTakesIPLiteralsButNotOtherNames() throws {
        var policy = try AccessPolicy(address: ListenAddress(ipv4: 0, port: 80), token: nil)
        policy.port = 80
        #expect(policy.token != nil, "a token is made for a listener beyond loopback")
        #expect(policy.acceptsHost("192.168.1.20"))
        #expect(policy.acceptsHost("10.0.0.1:80"))
        #expect(!policy.acceptsHost("attacker.example"))
        #expect(!policy.acceptsHost("10.0.0.1:81"))
        let machine = try #require(Sys.hostName()).lowercased()
        #expect(policy.acceptsHost(machine))
        #expect(policy.acceptsHost("\(machine).local:80"))
        #expect(
            !policy.acceptsHost("\(machine).attacker.example"), "a name that only begins with this machine's")
        #expect(!policy.acceptsHost("\(machine).local.attacker.example"))
    }

    @Test func tokensComeFromTheQueryTheHeaderOrASessionCookie() throws {
        var policy = try AccessPolicy(address: .defaultGallery, token: "t0ken")
        policy.port = 8765
        func admitted(_ request: HTTPRequest) -> (AccessScope, ClientStanding)? {
            let admission = policy.admission(of: request, share: { _ in nil }, shares: { _ in [] })
            guard case .admitted(let scope, let standing) = admission else { return nil }
            return (scope, standing)
        }
        #expect(admitted(HTTPRequest(method: "GET", path: "/")) == nil)
        let session = try policy.librarySession()
        #expect(!session.contains("t0ken"))
        for request in [
            HTTPRequest(method: "GET", path: "/", query: ["token": "t0ken"]),
            HTTPRequest(method: "GET", path: "/", headers: ["x-photofiler-token": "t0ken"]),
            HTTPRequest(method: "GET", path: "/", cookies: ["photofiler-token-8765": session]),
        ] {
            let (scope, standing) = try #require(admitted(request))
            #expect(scope == .library && standing == .owner)
        }
        // The token itself in a cookie is no session; another port's cookie is another gallery's;
        // another token's session opens nothing here.
        var other = try AccessPolicy(address: .defaultGallery, token: "another")
        other.port = 8765
        for cookies in [
            ["photofiler-token-8765": "t0ken"], ["photofiler-token-9999": session],
            ["photofiler-token-8765": try other.librarySession()],
        ] {
            #expect(admitted(HTTPRequest(method: "GET", path: "/", cookies: cookies)) == nil, "\(cookies)")
        }
        // Without a token (loopback) anyone reads, as anonymous: an old session is merely old.
        var open = try AccessPolicy(address: .defaultGallery, token: nil)
        open.port = 8765
        let stale = HTTPRequest(method: "GET", path: "/", cookies: ["photofiler-token-8765": session])
        guard
            case .admitted(.library, .anonymous) = open.admission(
                of: stale, share: { _ in nil }, shares: { _ in [] })
        else {
            Issue.record("an old session on a gallery without a token is anonymous")
            return
        }
        // A cookie does not write; the header does.
        #expect(
            !policy.allowsWrite(
                HTTPRequest(method: "PUT", path: "/", cookies: ["photofiler-token-8765": "t0ken"])))
        #expect(
            policy.allowsWrite(
                HTTPRequest(method: "PUT", path: "/", headers: ["x-photofiler-token": "t0ken"])))
    }

    @Test func cursorsRoundTripAndRefuseTheOtherOrder() {
        let added = AssetCursor(key: .added(1_701_428_096.123_456_7), id: 42)
        #expect(AssetCursor(text: added.text, sort: .added) == added)
        #expect(AssetCursor(text: added.text, sort: .created) == nil)
        let created = AssetCursor(key: .created(-86_400), id: 7)
        #expect(AssetCursor(text: created.text, sort: .created) == created)
        for bad in ["", "a", "a.", "ax.1", "c12", "c12.", "c12.-1", "c12.0", "z1.1", "a7ff0000000000000.1"] {
            #expect(
                AssetCursor(text: bad, sort: .added) == nil && AssetCursor(text: bad, sort: .created) == nil,
                "\(bad)")
        }
    }

    @Test(arguments: [
        ("127.0.0.1:8765", "127.0.0.1:8765"), ("0.0.0.0:0", "0.0.0.0:0"),
        ("10.1.2.3:65535", "10.1.2.3:65535"),
        ("localhost:80", "127.0.0.1:80 and [::1]:80"), ("[::1]:8765", "[::1]:8765"), ("[::]:80", "[::]:80"),
        ("[0:0:0:0:0:0:0:1]:80", "[::1]:80"), ("[FE80::1]:80", "[fe80::1]:80"),
    ])
    func listenAddressesParse(_ text: String, _ shown: String) throws {
        #expect(try ListenAddress(parsing: text).description == shown)
    }

    @Test(arguments: [
        "", "8765", ":80", "1.2.3:80", "1.2.3.4.5:80", "256.0.0.1:80", "1.2.3.4:65536", "host:80", "::1:80",
        "[::1]", "[::1:80", "[1.2.3.4]:80", "[::g]:80", "[]:80",
    ])
    func badListenAddressesAreRefused(_ text: String) {
        #expect(throws: ServerError.self) { try ListenAddress(parsing: text) }
    }

    @Test func theDefaultIsBothLoopbacksNamedByIPv4() throws {
        let address = ListenAddress.defaultGallery
        #expect(address.hosts == [.loopbackIPv4, .loopbackIPv6] && address.port == 8765)
        #expect(address.host == "127.0.0.1" && address.isLoopback && !address.isWildcard)
        #expect(try AccessPolicy(address: address, token: nil).token == nil, "loopback needs no token")
    }

    @Test func hostNamesOfBothLoopbacks() throws {
        var policy = try AccessPolicy(address: .defaultGallery, token: nil)
        policy.port = 8765
        for host in ["127.0.0.1:8765", "[::1]:8765", "[::1]", "[0:0::1]:8765", "localhost:8765"] {
            #expect(policy.acceptsHost(host), "\(host)")
        }
        for host in ["[::1]:8766", "[::2]:8765", "::1", "::1:8765", "[::1]x:8765", "[fe80::1]:8765"] {
            #expect(!policy.acceptsHost(host), "\(host)")
        }
    }

    @Test func anIPv6OnlyListenerTakesItsOwnLiteral() throws {
        var policy = try AccessPolicy(address: ListenAddress(parsing: "[::1]:0"), token: nil)
        policy.port = 4000
        #expect(policy.token == nil)
        #expect(policy.acceptsHost("[::1]:4000") && policy.acceptsHost("localhost:4000"))
        #expect(!policy.acceptsHost("127.0.0.1:4000"), "not an address it listens on")
        var wildcard = try AccessPolicy(address: ListenAddress(parsing: "[::]:80"), token: nil)
        wildcard.port = 80
        #expect(wildcard.token != nil, "a token is made for a listener beyond loopback")
        #expect(wildcard.acceptsHost("[fd00::2]:80") && wildcard.acceptsHost("192.168.1.20"))
        #expect(!wildcard.acceptsHost("attacker.example:80"))
    }
}

/// An event stream parks when empty, wakes once per send, and ends a client that
/// stopped reading, or whose share lapsed.
@Suite struct EventStreamTests {
    final class Counter: @unchecked Sendable {
        var wakes = 0
    }

    @Test func parksWakesAndEndsABacklog() throws {
        let stream = EventStream(share: nil, seal: try NumberSeal()) { _ in }
        let counter = Counter()
        stream.attach { counter.wakes += 1 }
        guard case .bytes(let greeting) = stream.next(limit: 4096, park: {}) else {
            Issue.record("the stream opens with its retry line")
            return
        }
        #expect(String(decoding: greeting, as: UTF8.self).hasPrefix("retry: "))
        var parked = false
        guard case .wait = stream.next(limit: 4096, park: { parked = true }) else {
            Issue.record("an empty stream parks")
            return
        }
        #expect(parked)
        stream.send(stream.message("filed", id: 7, sequence: 41))
        #expect(counter.wakes == 1)
        guard case .bytes(let event) = stream.next(limit: 4096, park: {}) else {
            Issue.record("a sent event is read")
            return
        }
        #expect(String(decoding: event, as: UTF8.self) == "id: 41\nevent: filed\ndata: {\"id\": 7}\n\n")
        let big = [UInt8](repeating: 0x20, count: EventStream.backlogLimit / 2 + 1)
        stream.send(big)
        stream.send(big)
        guard case .end = stream.next(limit: 4096, park: {}) else {
            Issue.record("a backlog over the limit ends the stream")
            return
        }
    }

    @Test func anEndedStreamWakesItsConnectionAndSendsNothingMore() throws {
        let stream = EventStream(share: nil, seal: try NumberSeal()) { _ in }
        let counter = Counter()
        stream.attach { counter.wakes += 1 }
        _ = stream.next(limit: 4096, park: {})
        guard case .wait = stream.next(limit: 4096, park: {}) else {
            Issue.record("an empty stream parks")
            return
        }
        stream.end()
        #expect(counter.wakes == 1)
        stream.send(stream.message("filed", id: 7, sequence: 41))
        #expect(counter.wakes == 1, "an ended stream is not parked")
        guard case .end = stream.next(limit: 4096, park: {}) else {
            Issue.record("an ended stream ends its response")
            return
        }
    }
}

/// Thumbnails already sent are answered from their file until the catalog changes.
@Suite struct KnownThumbnailsTests {
    @Test func aChangeForgetsAndALookupThatRacedWithItIsNotKept() {
        let known = KnownThumbnails()
        let key = KnownThumbnails.Key(asset: 7, size: 256)
        let file = ThumbnailFile(path: "/library/.photofiler/thumbnails/ab/ab-256.jpg")
        known.remember(file, for: key, readAt: known.current)
        #expect(known.file(key)?.path == file.path)
        let before = known.current
        known.forgetAll()
        #expect(known.file(key) == nil)
        known.remember(file, for: key, readAt: before)
        #expect(known.file(key) == nil, "read before the change: maybe stale")
        #expect(known.file(KnownThumbnails.Key(asset: 7, size: 1024)) == nil)
    }
}

/// A shared album's event ids: sealed numbers that open for their own share only.
@Suite struct NumberSealTests {
    @Test func aSealedNumberOpensForItsContextOnly() throws {
        let seal = try NumberSeal()
        let sealed = seal.seal(41, context: 7)
        #expect(sealed.count == 32)
        #expect(seal.open(sealed, context: 7) == 41)
        #expect(seal.open(sealed, context: 8) == nil)
        #expect(seal.open("41", context: 7) == nil)
        #expect(try NumberSeal().open(sealed, context: 7) == nil, "another run's key")
        #expect(seal.seal(42, context: 7) != sealed)
    }
}
