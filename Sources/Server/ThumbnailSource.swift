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

/// What asking for a thumbnail gave.
public enum ThumbnailAnswer: Sendable {
    case file(ThumbnailFile)
    /// The asset has none: its file cannot be decoded.
    case none
    /// It could not be had now (its folder cannot be read, no helper could be
    /// started, the disk is full): not the asset's fault. `reason` is the sentence
    /// for the visitor, without the server's paths; the source logs the file and the fix.
    case failed(reason: String)
}

/// Where the gallery gets a thumbnail file: made by whoever may decode (the
/// server itself decodes nothing). The command line injects the implementation.
public protocol ThumbnailSource: Sendable {
    /// The thumbnail of `asset` whose longest edge is `size` (256 or 1024), made
    /// now when missing.
    func thumbnail(of asset: AssetRecord, size: Int) -> ThumbnailAnswer
}
