import PhotoFilerMediaTypes
import PhotoFilerSystem

/// The limits a helper runs under, known to both sides: the helper sets them on
/// itself before it reads a byte, the daemon names them when one is reached.
package enum HelperLimits {
    /// `RLIMIT_AS`: a bomb (a header claiming a gigapixel image, a loop that
    /// allocates) fails here instead of taking the machine's memory. The libraries'
    /// own mappings take about 300 MiB of it; images are mapped whole, up to 256 MiB
    /// (of a JPEG, whose metadata is in its head, its first 256 MiB).
    package static let addressSpace = 1 << 30
    /// `RLIMIT_CPU`, over a helper's whole life: a backstop for a loop the daemon's
    /// per-file deadline has not ended yet. Helpers are retired well before an
    /// honest one gets near it (`HelperPool.Settings.requestsPerHelper`).
    package static let cpuSeconds = 600
    /// `RLIMIT_FSIZE`: a thumbnail's output file (the renditions of one file: a few
    /// JPEGs and the desktop's PNGs, 1024 pixels at most) stays far below it.
    package static let thumbnailOutput = 64 << 20
}
