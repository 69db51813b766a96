import Foundation
import PhotoFilerCatalog
import PhotoFilerFiling
import PhotoFilerServer
import PhotoFilerSystem

/// `photofiler share`: limited access, a link that sees one album only.
struct ShareCommand: Command {
    static let name = "share"
    static let help = """
        usage: photofiler share ALBUM [--expires DAYS] [--listen ADDR:PORT] [--library DIR]
               photofiler share --list [--json]
               photofiler share --revoke TOKEN|ID
        Prints a link to the gallery (at --listen, as 'serve' is started) whose token opens only ALBUM,
        read-only, until it expires or is revoked. Tokens are kept hashed; --list shows each share's ID
        (the start of its hash), which --revoke takes as well as the token itself.
        """

    enum Action {
        case create(album: AlbumName, days: Int?, address: ListenAddress)
        case list
        case revoke(String)
    }

    let action: Action

    init(_ arguments: inout Arguments) throws(UsageError) {
        let list = arguments.flag("--list")
        let revoke = try arguments.string("--revoke")
        let days = try arguments.integer("--expires", in: 1...36_500)
        let address = try arguments.listenAddress()
        let operands = try arguments.operands()
        switch (list, revoke, operands.count) {
        case (true, nil, 0): action = .list
        case (false, let token?, 0): action = .revoke(token)
        case (false, nil, 1):
            guard let album = try parseAlbumName(operands[0]) else { throw UsageError("Give one album.") }
            action = .create(album: album, days: days, address: address)
        default:
            throw UsageError("Give one album, or --list, or --revoke TOKEN; see 'photofiler share --help'.")
        }
    }

    func run(_ context: Context) -> Int32 {
        guard let library = context.openLibrary() else { return 1 }
        let catalog = library.catalog
        do {
            switch action {
            case .create(let name, let days, let address):
                guard let album = try catalog.album(named: name.value) else {
                    context.fail(
                        "There is no user album named '\(name)'; 'photofiler albums' lists them (smart albums cannot be shared)."
                    )
                    return 1
                }
                let token = try AccessToken.generate()
                let now = Date().timeIntervalSince1970
                try catalog.insertShare(
                    ShareRecord(
                        tokenHash: AccessToken.hash(token), album: album.id, createdAt: now,
                        expiresAt: days.map { now + Double($0) * 86_400 }))
                let path = album.name.addingPercentEncoding(
                    withAllowedCharacters: .urlPathAllowed.subtracting(["/"]))
                // On the wildcard address the gallery is reached by this machine's name.
                let host = address.isWildcard ? (Sys.hostName() ?? address.host) : address.host
                Output.line("http://\(host):\(address.port)/albums/\(path ?? album.name)?token=\(token)")
            case .list:
                try list(catalog, json: context.json)
            case .revoke(let given):
                guard let hash = try matchingShare(given, in: catalog) else {
                    context.fail("There is no share '\(given)'; 'photofiler share --list' lists them.")
                    return 1
                }
                _ = try catalog.removeShare(tokenHash: hash)
            }
            return 0
        } catch {
            context.fail("\(error)")
            return 1
        }
    }

    /// The share a user means: by its token, else by its listed ID (a unique start of its hash).
    private func matchingShare(_ given: String, in catalog: Catalog) throws(CatalogError) -> String? {
        let hash = AccessToken.hash(given)
        if try catalog.share(tokenHash: hash) != nil { return hash }
        guard given.count >= 8 else { return nil }
        let matches = try catalog.shares().filter { $0.tokenHash.hasPrefix(given.lowercased()) }
        return matches.count == 1 ? matches[0].tokenHash : nil
    }

    private func list(_ catalog: Catalog, json: Bool) throws(CatalogError) {
        struct Listed: Encodable {
            var id: String
            var album: String
            var created: String
            var expires: String?
            var expired: Bool
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(id, forKey: .id)
                try container.encode(album, forKey: .album)
                try container.encode(created, forKey: .created)
                try container.encode(expires, forKey: .expires)
                try container.encode(expired, forKey: .expired)
            }
            enum CodingKeys: String, CodingKey { case id, album, created, expires, expired }
        }
        let now = Date().timeIntervalSince1970
        var listed: [Listed] = []
        for share in try catalog.shares() {
            let album = try catalog.album(id: share.album)?.name ?? "?"
            listed.append(
                Listed(
                    id: String(share.tokenHash.prefix(12)), album: album,
                    created: DateText.iso8601UTC(share.createdAt),
                    expires: share.expiresAt.map(DateText.iso8601UTC), expired: !share.isValid(at: now)))
        }
        if json {
            Output.json(listed)
        } else {
            for share in listed {
                let until =
                    share.expires.map { (share.expired ? "expired " : "until ") + $0 } ?? "until revoked"
                Output.line("\(share.id)\t\(share.album)\tcreated \(share.created)\t\(until)")
            }
        }
    }
}
