/// The one place the release number is written: `photofiler --version`, the daemon's
/// READY line, `status` and `make deb` (which reads it from this file) all show it.
public enum PhotoFilerVersion {
    public static let current = "0.1.0"
}
