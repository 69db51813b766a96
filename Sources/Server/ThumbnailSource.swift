import PhotoFilerCatalog
import PhotoFilerSystem

/// Where the gallery gets a thumbnail file: made by whoever may decode (the
/// server itself decodes nothing). The command line injects the implementation.
public protocol ThumbnailSource: Sendable {
    /// A JPEG of `asset` whose longest edge is `size` (256 or 1024), made now when
    /// missing; nil when the asset has none (its file cannot be decoded).
    func thumbnail(of asset: AssetRecord, size: Int) -> BytePath?
}
