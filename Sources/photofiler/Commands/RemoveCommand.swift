import PhotoFilerCatalog
import PhotoFilerFiling

/// `photofiler rm`: to Recently Deleted, or out of one album.
struct RemoveCommand: Command {
    static let name = "rm"
    static let help = """
        usage: photofiler rm ID… [--album NAME] [--library DIR]
        With --album, the assets leave that album (the Roll keeps them); without, they go to Recently Deleted
        for 30 days ('photofiler restore ID' brings them back).
        """

    let ids: [AssetID]
    let album: AlbumName?

    init(_ arguments: inout Arguments) throws(UsageError) {
        album = try parseAlbumName(try arguments.value("--album"))
        ids = try parseIDs(try arguments.operands(), command: Self.name)
    }

    func run(_ context: Context) -> Int32 {
        context.forEachAsset(ids) { (library, id) throws(FilingError) in
            if let album {
                try library.lifecycle.removeFromAlbum(id, album: album)
            } else {
                _ = try library.lifecycle.moveToRecentlyDeleted(id)
            }
        }
    }
}

/// `photofiler restore`: back from Recently Deleted.
struct RestoreCommand: Command {
    static let name = "restore"
    static let help = """
        usage: photofiler restore ID… [--library DIR]
        Puts assets back from Recently Deleted into the Roll and every album they were in.
        """

    let ids: [AssetID]

    init(_ arguments: inout Arguments) throws(UsageError) {
        ids = try parseIDs(try arguments.operands(), command: Self.name)
    }

    func run(_ context: Context) -> Int32 {
        context.forEachAsset(ids) { (library, id) throws(FilingError) in _ = try library.lifecycle.restore(id)
        }
    }
}

/// `photofiler favorite` / `unfavorite`.
struct FavoriteCommand: Command {
    static let name = "favorite"
    static let help = """
        usage: photofiler favorite ID… | photofiler unfavorite ID… [--library DIR]
        Marks assets as favorites (they show in the Favorites smart album), or unmarks them.
        """

    let ids: [AssetID]
    var favorite = true

    init(_ arguments: inout Arguments) throws(UsageError) {
        ids = try parseIDs(try arguments.operands(), command: arguments.command)
        favorite = arguments.command == "favorite"
    }

    func run(_ context: Context) -> Int32 {
        context.forEachAsset(ids) { (library, id) throws(FilingError) in
            _ = try library.lifecycle.setFavorite(favorite, id)
        }
    }
}

/// `photofiler hide` / `unhide`.
struct HideCommand: Command {
    static let name = "hide"
    static let help = """
        usage: photofiler hide ID… | photofiler unhide ID… [--library DIR]
        Hides assets from every listing, count, cover and the gallery (they show only in the Hidden
        smart album and in 'info'), or shows them again. Their files and albums stay as they are.
        """

    let ids: [AssetID]
    var hidden = true

    init(_ arguments: inout Arguments) throws(UsageError) {
        ids = try parseIDs(try arguments.operands(), command: arguments.command)
        hidden = arguments.command == "hide"
    }

    func run(_ context: Context) -> Int32 {
        context.forEachAsset(ids) { (library, id) throws(FilingError) in
            _ = try library.lifecycle.setHidden(hidden, id)
        }
    }
}
