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

    /// The token a request presents in its address or its header.
    public func presentedToken(_ request: HTTPRequest) -> String? {
        if let query = request.query["token"], !query.isEmpty { return query }
        if let header = request.header(Self.tokenHeader), !header.isEmpty { return header }
        return nil
    }

    /// What a request's credentials open, or why they open nothing. `share` looks a
    /// token's hash up, `shares` the shares whose hashes begin so (a session cookie
    /// names its share by the first digits); a look-up that fails is thrown, not taken
    /// for a token that opens nothing.
    public func admission<Failure: Error>(
        of request: HTTPRequest, share: (String) throws(Failure) -> (AlbumRecord, ShareRecord)?,
        shares: (String) throws(Failure) -> [(AlbumRecord, ShareRecord)]
    ) throws(Failure) -> Admission {
        if let presented = presentedToken(request) {
            if AccessToken.matches(presented, sessionKey) { return .admitted(.library, .owner) }
            if let (album, record) = try share(AccessToken.hash(presented)) {
                return .admitted(.album(album, share: record), .visitor(share: record.tokenHash))
            }
            return .refused(staleCookies: false)
        }
        var stale = false
        func library() -> Admission? {
            guard let cookie = request.cookies[cookieName], !cookie.isEmpty else { return nil }
            if isLibrarySession(cookie) { return .admitted(.library, .owner) }
            // Without a token the library is open to loopback anyway; a session of an
            // earlier run is merely old.
            if token != nil { stale = true }
            return nil
        }
        func shared() throws(Failure) -> Admission? {
            guard let cookie = request.cookies[shareCookieName], !cookie.isEmpty else { return nil }
            if let prefix = SessionCookie.sharePrefix(cookie) {
                for (album, record) in try shares(prefix)
                where SessionCookie.isShareSession(cookie, tokenHash: record.tokenHash) {
                    return .admitted(.album(album, share: record), .visitor(share: record.tokenHash))
                }
            }
            stale = true
            return nil
        }
        // The gallery's cookie wins where it holds the token; without one it only marks
        // the owner's browser, and a share's beside it is the owner looking at the share.
        if token == nil {
            if let admitted = try shared() { return admitted }
            if let admitted = library() { return admitted }
        } else {
            if let admitted = library() { return admitted }
            if let admitted = try shared() { return admitted }
        }
        if stale { return .refused(staleCookies: true) }
        return token == nil ? .admitted(.library, .anonymous) : .refused(staleCookies: false)
    }

    /// What a library session cookie is sealed with: the token, else this run's write token.
    private var sessionKey: String { token ?? writeToken }

    /// A new session for one browser's library cookie.
    public func librarySession() throws(SystemError) -> String {
        try SessionCookie.library(key: sessionKey)
    }

    public func isLibrarySession(_ value: String) -> Bool {
        SessionCookie.isLibrarySession(value, key: sessionKey)
    }

    /// A write carries the write token in its header (a cookie alone is not enough:
    /// a page elsewhere could make the browser send it).
    public func allowsWrite(_ request: HTTPRequest) -> Bool {
        guard let header = request.header(Self.tokenHeader) else { return false }
        return AccessToken.matches(header, writeToken)
    }
}

/// What a request's credentials came to.
public enum Admission {
    case admitted(AccessScope, ClientStanding)
    /// 401; `staleCookies`: the cookies it sent open nothing any more (they are expired).
    case refused(staleCookies: Bool)
}

/// What a gallery cookie carries: a session sealed for one browser, never the token
/// (cookies ignore ports: every other service on the host is sent them).
/// `NONCE.MAC` for the library, `SHARE.NONCE.MAC` for a share, `SHARE` the first 16
/// digits of the share token's hash; each MAC an HMAC-SHA256 under the token (the
/// library's, or the share's hash, which only the catalog keeps).
enum SessionCookie {
    static func library(key: String) throws(SystemError) -> String {
        let nonce = try AccessToken.generate()
        return nonce + "." + AccessToken.authenticator("photofiler library session " + nonce, key: key)
    }

    static func isLibrarySession(_ value: String, key: String) -> Bool {
        let parts = value.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return false }
        let expected = AccessToken.authenticator("photofiler library session " + parts[0], key: key)
        return AccessToken.matches(String(parts[1]), expected)
    }

    static func share(tokenHash: String) throws(SystemError) -> String {
        let nonce = try AccessToken.generate()
        return tokenHash.prefix(16) + "." + nonce + "."
            + AccessToken.authenticator("photofiler share session " + nonce, key: tokenHash)
    }

    static func sharePrefix(_ value: String) -> String? {
        let parts = value.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 16, parts[0].allSatisfy(\.isHexDigit) else { return nil }
        return String(parts[0]).lowercased()
    }

    static func isShareSession(_ value: String, tokenHash: String) -> Bool {
        let parts = value.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, tokenHash.hasPrefix(parts[0]) else { return false }
        let expected = AccessToken.authenticator("photofiler share session " + parts[1], key: tokenHash)
        return AccessToken.matches(String(parts[2]), expected)
    }
}
