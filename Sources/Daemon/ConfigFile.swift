import Glibc
import PhotoFilerGLib
import PhotoFilerSystem

/// The config file of photofiler.conf(5): `[library]` and `[inbox NAME]` groups in GLib's
/// key-file syntax.
///
/// Loading is all-or-nothing and strict (an unknown group or key is an error,
/// not ignored) because a typo that silently does nothing — `setle = 2000`, an
/// inbox that is never watched — is worse for a background daemon than a
/// refusal to start; and a SIGHUP re-read that fails keeps the running
/// configuration, so strictness never stops a running daemon.
public enum ConfigFile {
    /// The config file photofiler.conf(5) names when `--config` is not given:
    /// `$XDG_CONFIG_HOME/photofiler/photofiler.conf` (else under `~/.config`),
    /// or nil when no such file exists (running without one is normal). A file
    /// this user cannot even reach (a folder it may not search, as when a command
    /// runs as another user under someone's `$XDG_CONFIG_HOME`) is not this user's
    /// config and counts as absent; a reachable one that cannot be read is loaded,
    /// and says so.
    public static func defaultPath(environment: [String: String] = ProcessEnvironment.current) -> BytePath? {
        let path = XDGDirectories.configHome(environment: environment)
            .appending("photofiler").appending("photofiler.conf")
        guard case .some(.some) = try? Sys.statusIfExists(path, followLinks: true) else { return nil }
        return path
    }

    /// Reads and checks the file at `path` (`~` expanded, relative to the
    /// working directory). Paths inside it are `~`-expanded and a relative one
    /// is taken from the config file's own folder, which does not depend on
    /// where the daemon happens to be started.
    public static func load(
        _ path: BytePath, environment: [String: String] = ProcessEnvironment.current
    ) throws(ConfigurationError) -> Configuration {
        let file = PathExpansion.absolute(
            path, base: Sys.currentDirectory(), environment: environment)
        let data: [UInt8]
        do {
            data = try readAll(file)
        } catch {
            throw .unreadable(file: file, error)
        }
        return try parse(data, file: file, environment: environment)
    }

    /// Checks `data` as the content of the config file `file` (absolute).
    public static func parse(
        _ data: [UInt8], file: BytePath, environment: [String: String] = ProcessEnvironment.current
    ) throws(ConfigurationError) -> Configuration {
        let lines = KeyFileLines(data)
        let keyFile: KeyFile
        do {
            keyFile = try KeyFile(data: data)
        } catch {
            let number = lines.firstFailingLine(in: data)
            throw .syntax(
                at: .file(file, line: number), line: lines.text(ofLine: number), message: error.text)
        }
        var reader = ConfigFileReader(file: file, lines: lines, environment: environment)
        return try reader.read(keyFile)
    }

    private static func readAll(_ path: BytePath) throws(SystemError) -> [UInt8] {
        // Followed on purpose: dotfile managers keep ~/.config files as symbolic links.
        let fd = try Sys.open(path, flags: O_RDONLY | O_CLOEXEC | O_NOCTTY)
        defer { fd.close() }
        if try fd.status().isDirectory { throw SystemError(.isDirectory, call: "read", path: path) }
        return try fd.readToEnd()
    }
}
