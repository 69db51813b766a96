import FoundationEssentials
import PhotoFilerSystem

/// The capture-date chain of photofiler(1) "Capture date", as pure functions: EXIF or container date, else a
/// date in the file name, else the file's mtime; absurd dates do not count.
public enum CaptureDates {
    /// The first date of the chain that exists and is plausible (1826 ... next year).
    /// An mtime that is not (a clock never set, a copy tool's 2099) gives way to
    /// `now`, the time the file is filed: an asset is never sorted into a year it
    /// cannot have been taken in.
    public static func resolve(
        embedded: CaptureDate?, fileName: BytePath, modificationSeconds: Int64,
        timeZone: any ZoneOffsets = LocalZone(), now: Date = Date()
    ) -> CaptureDate {
        if let embedded, isPlausible(embedded.secondsSinceEpoch, now: now) { return embedded }
        if let named = fromFileName(fileName.lastComponent, timeZone: timeZone),
            isPlausible(named.secondsSinceEpoch, now: now)
        {
            return named
        }
        if isPlausible(modificationSeconds, now: now) {
            return CaptureDate(
                secondsSinceEpoch: modificationSeconds, utcOffsetSeconds: nil, source: .modificationTime)
        }
        return CaptureDate(
            secondsSinceEpoch: Int64(now.timeIntervalSince1970.rounded(.down)), utcOffsetSeconds: nil,
            source: .added)
    }

    /// A date in a chat app's or camera's file name (`mmexport1701428096000.jpg`,
    /// `IMG_20231201_123456.jpg` …), local times read in `timeZone`.
    ///
    /// Names carry no offset, so the instant is the wall time in `timeZone` and the
    /// offset stays nil (shown in the machine's zone, the same wall time again).
    /// A date-only name (`IMG-20231201-WA0001.jpg`) means local midnight: WhatsApp
    /// gives no time, and midnight keeps the asset on the right day in every view.
    public static func fromFileName(_ name: BytePath, timeZone: any ZoneOffsets = LocalZone()) -> CaptureDate?
    {
        FileNameDatePatterns.match(name.lastComponent, timeZone: timeZone)
    }

    /// EXIF `DateTimeOriginal` ("2023:12:01 12:34:56") with `OffsetTimeOriginal` ("+08:00").
    ///
    /// Also takes XMP's ISO 8601 form ("2015-09-27T16:29:28+02:00"), whose inline
    /// offset counts when `offset` is absent. Subseconds are ignored; blank or
    /// zeroed dates ("0000:00:00 00:00:00") and anything else unexpected give nil.
    /// Without any offset, the wall time is read in `timeZone`.
    public static func fromExif(_ dateTime: String, offset: String?, timeZone: any ZoneOffsets = LocalZone())
        -> CaptureDate?
    {
        guard let parsed = DateTimeText.parse(dateTime) else { return nil }
        let explicit = offset.flatMap { DateTimeText.parseOffset(Substring($0)) }
        let utcOffset = explicit ?? parsed.offset
        guard let seconds = parsed.fields.instant(utcOffset: utcOffset, timeZone: timeZone) else {
            return nil
        }
        return CaptureDate(secondsSinceEpoch: seconds, utcOffsetSeconds: utcOffset, source: .exif)
    }

    /// True when the instant lies between 1826-01-01 and the end of next year.
    ///
    /// 1826 is the oldest surviving photograph; a camera whose clock was never set
    /// says 1970 or 2000, which still passes, but a zeroed or overflowed field does not.
    public static func isPlausible(_ secondsSinceEpoch: Int64, now: Date = Date()) -> Bool {
        let earliest = CivilDate.secondsSinceEpoch(year: 1826, month: 1, day: 1)
        let thisYear = CivilDate.year(ofSecondsSinceEpoch: Int64(now.timeIntervalSince1970.rounded(.down)))
        let end = CivilDate.secondsSinceEpoch(year: thisYear + 2, month: 1, day: 1)
        return secondsSinceEpoch >= earliest && secondsSinceEpoch < end
    }
}
