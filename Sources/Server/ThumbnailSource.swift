import PhotoFilerCatalog
import PhotoFilerSystem

/// A thumbnail file to send: a JPEG from the thumbnail store.
public struct ThumbnailFile: Sendable {
    public var path: BytePath
    public var mimeType: String

    public init(path: BytePath, mimeType: String = "image/jpeg") {
        self.path = path
        self.mimeType = mimeType
    }
}

/// Where the gallery gets a thumbnail file: made by whoever may decode (the
/// server itself decodes nothing). The command line injects the implementation.
public protocol ThumbnailSource: Sendable {
    /// The thumbnail of `asset` whose longest edge is `size` (256 or 1024), made
    /// now when missing; nil when the asset has none (its file cannot be decoded).
    func thumbnail(of asset: AssetRecord, size: Int) -> ThumbnailFile?
}
