import Foundation
import PhotoFilerCatalog
import PhotoFilerFiling
import PhotoFilerSystem

/// Who a request speaks for, once the gallery's safety rules have let it in.
public enum AccessScope: Sendable, Equatable {
    /// The whole library (loopback without `--token`, or the gallery's token).
    case library
    /// One album through a `share` link: read-only, everything else is 404.
    case album(AlbumRecord, share: ShareRecord)
}

/// The safety rules of photofiler(1) serve for one listener: the Host check against DNS rebinding, the
/// token (once as `?token=`, then a cookie, or the `X-PhotoFiler-Token` header),
/// share tokens, and the write token.
public struct AccessPolicy: Sendable {
    public let address: ListenAddress
    /// Required of every request when set: `--token`, or one made for a non-loopback listener.
    public let token: String?
    /// What a write must carry in `X-PhotoFiler-Token`: the token, else a per-run secret that
    /// only the gallery's own pages know (`<meta name="photofiler-token">`).
    public let writeToken: String
    /// The listener's port once bound (the cookie and the Host check name it).
    public var port: UInt16

    public static let tokenHeader = "x-photofiler-token"

    public init(address: ListenAddress, token: String?) throws(SystemError) {
        self.address = address
        self.port = address.port
        if let token {
            self.token = token
        } else if address.isLoopback {
            self.token = nil
        } else {
            self.token = try AccessToken.generate()
        }
        if let token = self.token {
            writeToken = token
        } else {
            writeToken = try AccessToken.generate()
        }
    }

    /// Cookies ignore ports, so the name carries it: two galleries on one host keep theirs apart.
    public var cookieName: String { "photofiler-token-\(port)" }
    /// A share link's token has a cookie of its own: the owner who opens one keeps the
    /// gallery's cookie, and leaves the shared view by dropping this one (`/leave-share`).
    public var shareCookieName: String { "photofiler-share-\(port)" }

    /// The Host header names this listener: one of its addresses (`127.0.0.1`, `[::1]`)
    /// or, on loopback, `localhost`; on the wildcard address any IP literal, this
    /// machine's name (as a share link prints it) or its mDNS name (`NAME.local`). A
    /// name that merely resolves here (DNS rebinding) is refused, and so is one that
    /// only begins with this machine's name (`NAME.attacker.example`).
    public func acceptsHost(_ host: String?) -> Bool {
        guard let host, !host.isEmpty else { return false }
        var name = Substring(host.lowercased())
        // The port, when given, follows the last colon outside an IPv6 literal's brackets.
        if let colon = name.lastIndex(of: ":"), !name[colon...].contains("]") {
            guard UInt16(name[name.index(after: colon)...]) == port else { return false }
            name = name[..<colon]
        }
        if name == "localhost" { return address.isLoopback || address.isWildcard }
        if let literal = ListenHost(literal: name) {
            return address.hosts.contains(literal) || address.isWildcard
        }
        if address.isWildcard, let machine = Sys.hostName()?.lowercased(), !machine.isEmpty {
            return name == machine || name == machine + ".local"
        }
        return false
    }

    /// The token a request presents: the query's, else the header's, else the
    /// gallery's cookie, else a share's.
    public func presentedToken(_ request: HTTPRequest) -> (token: String, fromCookie: Bool)? {
        if let query = request.query["token"], !query.isEmpty { return (query, false) }
        if let header = request.header(Self.tokenHeader), !header.isEmpty { return (header, false) }
        for name in [cookieName, shareCookieName] {
            if let cookie = request.cookies[name], !cookie.isEmpty { return (cookie, true) }
        }
        return nil
    }

    /// The scope of a request, or nil for 401. `share` looks a token's hash up; a
    /// look-up that fails is thrown, not taken for a token that opens nothing.
    public func scope<Failure: Error>(
        of request: HTTPRequest, share: (String) throws(Failure) -> (AlbumRecord, ShareRecord)?
    ) throws(Failure) -> AccessScope? {
        guard let presented = presentedToken(request)?.token else {
            return token == nil ? .library : nil
        }
        return try scope(of: presented, share: share)
    }

    /// What `token` opens: the library, one shared album, or nothing (nil).
    public func scope<Failure: Error>(
        of presented: String, share: (String) throws(Failure) -> (AlbumRecord, ShareRecord)?
    ) throws(Failure) -> AccessScope? {
        if AccessToken.matches(presented, token ?? writeToken) { return .library }
        if let (album, record) = try share(AccessToken.hash(presented)) {
            return .album(album, share: record)
        }
        return nil
    }

    /// A write carries the write token in its header (a cookie alone is not enough:
    /// a page elsewhere could make the browser send it).
    public func allowsWrite(_ request: HTTPRequest) -> Bool {
        guard let header = request.header(Self.tokenHeader) else { return false }
        return AccessToken.matches(header, writeToken)
    }
}
