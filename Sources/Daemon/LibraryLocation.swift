import PhotoFilerSystem

/// Which folder is the library, and why: the order of precedence photofiler(1) gives under --library.
///
/// `source` is kept so that a message can say where a surprising path came from
/// ("the library '/x' (from $PHOTOFILER_LIBRARY) …").
public struct LibraryLocation: Hashable, Sendable {
    public enum Source: String, Hashable, Sendable {
        case flag = "--library"
        case environment = "$PHOTOFILER_LIBRARY"
        case configFile = "the config file"
        case defaultLocation = "the default location"
    }

    /// Absolute and tidy; the folder may not exist yet (commands create it).
    public var path: BytePath
    public var source: Source

    public init(path: BytePath, source: Source) {
        self.path = path
        self.source = source
    }

    /// `--library DIR`, else `$PHOTOFILER_LIBRARY`, else the config file's
    /// `[library] path`, else `$XDG_PICTURES_DIR/PhotoFiler`.
    ///
    /// `flag` and the variable are `~`-expanded and taken from the working
    /// directory when relative (the config file's path arrives already
    /// absolute from `ConfigFile.load`). Throws when the default is needed and
    /// `user-dirs.dirs` is there but cannot be read.
    public static func resolve(
        flag: BytePath?, environment: [String: String] = ProcessEnvironment.current,
        config: Configuration?, workingDirectory: BytePath? = nil
    ) throws(SystemError) -> LibraryLocation {
        let base = workingDirectory ?? Sys.currentDirectory()
        if let flag, !flag.isEmpty {
            return LibraryLocation(
                path: PathExpansion.absolute(flag, base: base, environment: environment), source: .flag)
        }
        if let value = environment["PHOTOFILER_LIBRARY"], !value.isEmpty {
            return LibraryLocation(
                path: PathExpansion.absolute(BytePath(value), base: base, environment: environment),
                source: .environment)
        }
        if let path = config?.libraryPath {
            return LibraryLocation(path: path, source: .configFile)
        }
        let pictures = try XDGDirectories.pictures(environment: environment)
        return LibraryLocation(path: pictures.appending("PhotoFiler"), source: .defaultLocation)
    }
}
