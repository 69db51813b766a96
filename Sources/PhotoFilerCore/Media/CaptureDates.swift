import Foundation

/// SPEC's capture-date chain, as pure functions: EXIF or container date, else a
/// date in the file name, else the file's mtime; absurd dates do not count.
public enum CaptureDates {
    /// The first date of the chain that exists and is plausible (1826 ... next year).
    public static func resolve(
        embedded: CaptureDate?, fileName: BytePath, modificationSeconds: Int64,
        timeZone: TimeZone = .current, now: Date = Date()
    ) -> CaptureDate {
        fatalError("CaptureDates.resolve: to be written")
    }

    /// A date in a chat app's or camera's file name (`mmexport1701428096000.jpg`,
    /// `IMG_20231201_123456.jpg` …), local times read in `timeZone`.
    public static func fromFileName(_ name: BytePath, timeZone: TimeZone = .current) -> CaptureDate? {
        fatalError("CaptureDates.fromFileName: to be written")
    }

    /// EXIF `DateTimeOriginal` ("2023:12:01 12:34:56") with `OffsetTimeOriginal` ("+08:00").
    public static func fromExif(_ dateTime: String, offset: String?, timeZone: TimeZone = .current) -> CaptureDate? {
        fatalError("CaptureDates.fromExif: to be written")
    }

    /// True when the instant lies between 1826-01-01 and the end of next year.
    public static func isPlausible(_ secondsSinceEpoch: Int64, now: Date = Date()) -> Bool {
        fatalError("CaptureDates.isPlausible: to be written")
    }
}
