import PhotoFilerMediaTypes
import PhotoFilerSystem

/// File names screenshot tools give: the fallback when the content does not say
/// "Screenshot" (Android and Windows write no such tag).
package enum ScreenshotNames {
    /// Prefixes, ASCII letters compared case-insensitively.
    package static let prefixes = [
        "Screenshot_", "Screenshot ", "Screenshot-", "Screen Shot ", "截屏", "屏幕截图", "Snipaste_",
    ]

    package static func matches(_ name: BytePath) -> Bool {
        // Ill-formed bytes decode to U+FFFD, which no prefix contains.
        let text = String(decoding: name.lastComponent.bytes, as: UTF8.self)
        let lowered = text.lowercased()
        return prefixes.contains { lowered.hasPrefix($0.lowercased()) }
    }
}
