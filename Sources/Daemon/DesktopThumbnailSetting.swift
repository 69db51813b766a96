import PhotoFilerFiling
import PhotoFilerSystem

extension XDGDirectories {
    /// `$XDG_CACHE_HOME` when absolute (the spec ignores a relative one), else `~/.cache`.
    package static func cacheHome(environment: [String: String]) -> BytePath {
        if let value = environment["XDG_CACHE_HOME"], value.hasPrefix("/") { return BytePath(value) }
        return PathExpansion.home(environment: environment).appending(".cache")
    }
}

extension Configuration {
    /// The desktop's thumbnail cache that `save`, `thumb` and the daemon fill, or nil
    /// when `[library] desktop-thumbnails = false` (a nil configuration: on).
    public static func desktopThumbnailCache(
        _ configuration: Configuration?, environment: [String: String] = ProcessEnvironment.current
    ) -> DesktopThumbnailCache? {
        guard configuration?.effectiveDesktopThumbnails ?? true else { return nil }
        return DesktopThumbnailCache(
            root: XDGDirectories.cacheHome(environment: environment).appending("thumbnails"))
    }
}
