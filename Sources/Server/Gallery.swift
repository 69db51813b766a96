import Foundation
import Glibc
import PhotoFilerCatalog
import PhotoFilerFiling
import PhotoFilerSystem

/// `photofiler serve` (and the picker's private server): the pages and API of photofiler(1) serve
/// over one library's catalog, behind its safety rules.
///
/// `@unchecked Sendable`: the policy's port is written once after the listener
/// binds, under `lock`; `timelines` is used only on the catalog's serial queue
/// (inside `catalog.read`); everything else is immutable or Sendable itself.
public final class Gallery: HTTPHandler, @unchecked Sendable {
    let catalog: CatalogAccess
    let thumbnails: any ThumbnailSource
    let events: EventHub
    let picker: PickSession?
    let log: Logger
    /// Used on the catalog's queue only.
    let timelines = TimelineCache()
    let knownThumbnails = KnownThumbnails()
    private let lock = ThreadLock()
    private var policyValue: AccessPolicy
    /// One listener per address bound (two for `localhost`).
    private var daemons: [MicroHTTPDaemon] = []
    /// The connections of every listener, and the limits they are held to.
    let clients: ConnectionGuard

    public init(
        catalog: CatalogAccess, policy: AccessPolicy, thumbnails: any ThumbnailSource,
        picker: PickSession? = nil, limits: HTTPLimits = HTTPLimits(), log: Logger
    ) throws(SystemError) {
        self.catalog = catalog
        clients = ConnectionGuard(limits: limits, log: log)
        self.log = log
        self.thumbnails = thumbnails
        self.picker = picker
        self.policyValue = policy
        let known = knownThumbnails
        let seal = try NumberSeal()
        events = EventHub(catalog: catalog, clock: { Date().timeIntervalSince1970 }, seal: seal) {
            known.forgetAll()
        }
    }

    public var policy: AccessPolicy { lock.withLock { policyValue } }

    /// Starts listening on every address of the policy's (the first gives the port
    /// when it is 0, the others take the same); the gallery's address.
    public func start() throws(ServerError) -> String {
        try events.start()
        let address = policy.address
        let first = try MicroHTTPDaemon(
            host: address.hosts[0], port: address.port, handler: self, log: log, clients: clients)
        var started = [first]
        for host in address.hosts.dropFirst() {
            do {
                started.append(
                    try MicroHTTPDaemon(
                        host: host, port: first.port, handler: self, log: log, clients: clients))
            } catch .cannotListen(_, let errno) where Self.familyMissing.contains(errno.rawValue) {
                continue  // a machine without IPv6 (or without its loopback): IPv4 alone
            }
        }
        lock.withLock {
            policyValue.port = first.port
            daemons = started
        }
        return baseURL
    }

    /// What binding says when this machine has no such address family or address.
    private static let familyMissing: Set<Int32> = [EAFNOSUPPORT, EADDRNOTAVAIL, EPROTONOSUPPORT]

    /// `http://ADDR:PORT` of the running listener (the machine's name on the wildcard address).
    public var baseURL: String {
        let policy = self.policy
        let host = policy.address.isWildcard ? (Sys.hostName() ?? "localhost") : policy.address.host
        return "http://\(host):\(policy.port)"
    }

    public func respond(to request: HTTPRequest) -> HTTPResponse {
        var response = admit(request)
        for (name, value) in Self.securityHeaders { response.addHeader(name, value) }
        return response
    }

    /// No inline script or style, nothing from elsewhere, no framing, no referrer.
    static let securityHeaders: [(String, String)] = [
        (
            "Content-Security-Policy",
            "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; media-src 'self'; "
                + "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
        ),
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "no-referrer"),
        ("X-Frame-Options", "DENY"),
    ]

    /// The checks in order: Host (403), body (413), token (401), write rights (403), then the route.
    private func admit(_ request: HTTPRequest) -> HTTPResponse {
        let policy = self.policy
        // Two Hosts could pass the check with one and reach a proxy with the other (RFC 9112: 400).
        guard !request.repeatedHeaders.contains("host") else {
            return .error(400, "A request names its Host once.")
        }
        guard policy.acceptsHost(request.header("host")) else {
            return .error(403, "This gallery answers only to its own address; open it as \(baseURL)/.")
        }
        if let length = request.header("content-length"), length != "0" {
            return .error(413, "The gallery takes no request bodies.")
        }
        if request.header("transfer-encoding") != nil {
            return .error(413, "The gallery takes no request bodies.")
        }
        guard ["GET", "HEAD", "PUT", "DELETE", "POST"].contains(request.method) else {
            return .error(405, "The gallery does not answer \(request.method) requests.")
        }
        let admission: Admission
        do {
            admission = try policy.admission(
                of: request, share: share(tokenHash:), shares: shares(hashPrefix:))
        } catch {
            // Could not look the token up: not "no such share" (401, whose cookie would go).
            return Self.catalogFailed(error)
        }
        guard case .admitted(let scope, let standing) = admission else {
            let reason =
                "This gallery needs its token: open the link photofiler printed (…?token=…); a shared album's link opens it until the share expires or is revoked."
            // A page is shown the reason as a page; the API answers JSON.
            var refused =
                request.path.hasPrefix("/api/") || request.path.hasPrefix("/static/")
                ? HTTPResponse.error(401, reason) : .html(Page.refused(reason), status: 401)
            if case .refused(staleCookies: true) = admission {
                for name in [policy.cookieName, policy.shareCookieName] {
                    refused.addHeader("Set-Cookie", Self.expired(name))
                }
            }
            return refused
        }
        var response = answer(request, scope: scope, policy: policy)
        response.standing = standing
        return response
    }

    /// The answer to an admitted request, with the cookie it leaves: a token given in
    /// the address becomes a session cookie, and a page asked for with one moves on to
    /// its address without it (out of the address bar).
    private func answer(_ request: HTTPRequest, scope: AccessScope, policy: AccessPolicy) -> HTTPResponse {
        if request.path == "/leave-share" {
            // The owner who opened a share link goes back to the gallery: the share's
            // cookie goes. Only one the request carried (SameSite=Strict: never from
            // another site's page).
            var leave = HTTPResponse(status: 303, headers: [("Location", "/")], body: .bytes([]))
            if request.cookies[policy.shareCookieName] != nil {
                leave.addHeader("Set-Cookie", Self.expired(policy.shareCookieName))
            }
            return leave
        }
        if request.isWrite {
            guard case .library = scope else {
                return .error(403, "A shared album is read-only.")
            }
            guard policy.allowsWrite(request) else {
                return .error(403, "A change needs the header X-PhotoFiler-Token with the gallery's token.")
            }
        }
        let isPage = !request.path.hasPrefix("/api/") && !request.path.hasPrefix("/static/")
        let tokenInAddress = request.query["token"].map { !$0.isEmpty } ?? false
        var response: HTTPResponse
        if tokenInAddress, isPage, !request.isWrite {
            response = .html(Page.onward(to: Self.withoutToken(request)))
            response.addHeader("Cache-Control", "no-store")
        } else {
            response = route(request, scope: scope)
        }
        // A session for this browser: given for a token in the address, and with a
        // library page that came without one (the owner's browser on a loopback
        // gallery without a token: its requests then come before anonymous ones).
        let cookie: String?
        switch scope {
        case .album(_, let share):
            let session = tokenInAddress ? try? SessionCookie.share(tokenHash: share.tokenHash) : nil
            cookie = session.map { policy.shareCookieName + "=" + $0 }
        case .library:
            let hasSession = request.cookies[policy.cookieName].map(policy.isLibrarySession) ?? false
            let wanted = tokenInAddress || (isPage && !hasSession && response.status < 400)
            cookie = wanted ? (try? policy.librarySession()).map { policy.cookieName + "=" + $0 } : nil
        }
        if let cookie { response.addHeader("Set-Cookie", cookie + "; Path=/; HttpOnly; SameSite=Strict") }
        return response
    }

    /// The request's path and query without `token` (the other arguments as given,
    /// percent-encoded again), for the redirect that takes the token out of the address.
    private static func withoutToken(_ request: HTTPRequest) -> String {
        let allowed = CharacterSet.urlQueryAllowed.subtracting(["+", "&", "#", "%", "="])
        let arguments = request.query.filter { $0.key != "token" }.sorted { $0.key < $1.key }.map {
            ($0.key.addingPercentEncoding(withAllowedCharacters: allowed) ?? "") + "="
                + ($0.value.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")
        }
        let path = request.path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? "/"
        return arguments.isEmpty ? path : path + "?" + arguments.joined(separator: "&")
    }

    private static func expired(_ cookie: String) -> String {
        "\(cookie)=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict"
    }

    /// Live shares whose token hashes begin with `prefix`, with their albums.
    private func shares(hashPrefix prefix: String) throws(CatalogError) -> [(AlbumRecord, ShareRecord)] {
        let now = Date().timeIntervalSince1970
        return try catalog.read { catalog throws(CatalogError) -> [(AlbumRecord, ShareRecord)] in
            var found: [(AlbumRecord, ShareRecord)] = []
            for share in try catalog.shares()
            where share.tokenHash.hasPrefix(prefix) && share.isValid(at: now) {
                if let album = try catalog.album(id: share.album) { found.append((album, share)) }
            }
            return found
        }
    }

    /// The album a live share token opens, and the share, by the token's hash.
    private func share(tokenHash: String) throws(CatalogError) -> (AlbumRecord, ShareRecord)? {
        let now = Date().timeIntervalSince1970
        return try catalog.read { catalog throws(CatalogError) -> (AlbumRecord, ShareRecord)? in
            guard let share = try catalog.share(tokenHash: tokenHash), share.isValid(at: now),
                let album = try catalog.album(id: share.album)
            else {
                return nil
            }
            return (album, share)
        }
    }

    private func route(_ request: HTTPRequest, scope: AccessScope) -> HTTPResponse {
        let parts = request.path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map(
            String.init)
        let reading = request.method == "GET" || request.method == "HEAD"
        func readOnly(_ make: () -> HTTPResponse) -> HTTPResponse {
            reading ? make() : .error(405, "\(request.path) is read-only.")
        }
        switch parts.first {
        case "api":
            return api(Array(parts.dropFirst()), request, scope: scope)
        case "static":
            return readOnly { PageFiles.file(parts.dropFirst().joined(separator: "/")) }
        case "" where parts.count == 1, nil:
            return readOnly { page(.albums, scope: scope) }
        case "albums" where parts.count == 2:
            return readOnly { albumPage(named: parts[1], request: request, scope: scope) }
        case "assets" where parts.count == 2:
            return readOnly { assetPage(parts[1], scope: scope) }
        case "pick" where parts.count == 1:
            guard case .library = scope else { return .html(Page.notFound, status: 404) }
            return readOnly { pickPage(request) }
        default:
            return .html(Page.notFound, status: 404)
        }
    }

    func page(_ kind: Page.Kind, scope: AccessScope, attributes: [String: String] = [:]) -> HTTPResponse {
        var attributes = attributes
        if case .album(let album, _) = scope { attributes["shared-album"] = album.name }
        let token: String
        switch scope {
        case .library: token = policy.writeToken
        case .album: token = ""
        }
        return .html(Page.render(kind, token: token, attributes: attributes))
    }

    /// `photofiler pick`'s page shows its options; the gallery's own takes them from
    /// its query, and its Add answers with the picked assets rather than ending a command.
    private func pickPage(_ request: HTTPRequest) -> HTTPResponse {
        let filter: PickFilter
        if let picker {
            filter = picker.filter
        } else {
            do {
                filter = try PickFilter(query: request.query)
            } catch {
                return .error(400, (error as? BadParameter)?.message ?? "\(error)")
            }
        }
        var attributes = filter.pageAttributes
        if let album = filter.album {
            do {
                switch try resolveAlbum(album, scope: .library) {
                case .found(let query): attributes.merge(Self.kindAttributes(query)) { $1 }
                case .missing, .invalid: if picker == nil { return .html(Page.notFound, status: 404) }
                }
            } catch {
                return Self.catalogFailed(error)
            }
        }
        if picker != nil { attributes["pick-ends"] = "true" }
        return page(.pick, scope: .library, attributes: attributes)
    }

    private func albumPage(named name: String, request: HTTPRequest, scope: AccessScope) -> HTTPResponse {
        do {
            switch try resolveAlbum(name, scope: scope) {
            case .found(let query):
                return page(
                    .album, scope: scope,
                    attributes: ["album": name].merging(Self.kindAttributes(query)) { $1 })
            case .missing, .invalid: return .html(Page.notFound, status: 404)
            }
        } catch {
            return Self.catalogFailed(error)
        }
    }

    /// A request whose catalog read failed, page or API: the failure, never "no such
    /// album", "no such asset" or "no such share".
    static func catalogFailed(_ error: any Error) -> HTTPResponse {
        .error(500, "The catalog failed: \(error)")
    }

    /// `smart-album` when the album a page shows is a smart one: its live updates then
    /// follow the smart album's rule. A user album may have a smart album's name (an
    /// inbox named Screenshots); then the name means the user's album, as everywhere.
    private static func kindAttributes(_ query: AssetQuery) -> [String: String] {
        query.smartAlbum == nil ? [:] : ["smart-album": "true"]
    }

    private func assetPage(_ text: String, scope: AccessScope) -> HTTPResponse {
        guard let id = AssetID(text), id > 0 else { return .html(Page.notFound, status: 404) }
        do throws(CatalogError) {
            guard try visibleAsset(id, scope: scope) != nil else { return .html(Page.notFound, status: 404) }
        } catch {
            return Self.catalogFailed(error)
        }
        return page(.asset, scope: scope, attributes: ["asset": String(id)])
    }
}
