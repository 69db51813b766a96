import FoundationEssentials

/// Gregorian calendar arithmetic in whole seconds, without Foundation's
/// `Calendar`: dates with an explicit offset need no time-zone database, and
/// this runs for every filed file.
package enum CivilDate {
    /// Days from 1970-01-01 to the given proleptic Gregorian date (negative before).
    package static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int64 {
        // Shift the year to start in March so the leap day is the year's last day.
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let m = Int64(month)
        let dayOfYear = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    package static func secondsSinceEpoch(
        year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0
    ) -> Int64 {
        daysSinceEpoch(year: year, month: month, day: day) * 86_400
            + Int64(hour * 3600 + minute * 60 + second)
    }

    /// The UTC calendar year an instant falls in.
    package static func year(ofSecondsSinceEpoch seconds: Int64) -> Int {
        yearAndMonth(ofSecondsSinceEpoch: seconds).year
    }

    /// The UTC calendar year and month (1–12) an instant falls in.
    package static func yearAndMonth(ofSecondsSinceEpoch seconds: Int64) -> (year: Int, month: Int) {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (Int(yearOfEra + era * 400 + (month <= 2 ? 1 : 0)), Int(month))
    }

    package static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2:
            let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
            return leap ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}

/// A wall-clock date and time as written in a tag or a file name.
package struct DateFields: Equatable {
    package var year: Int
    package var month: Int
    package var day: Int
    package var hour = 0
    package var minute = 0
    package var second = 0

    /// False for impossible values, which `Calendar` would silently roll over
    /// (February 30th becoming March 2nd).
    package var isValid: Bool {
        (1...9999).contains(year) && (1...12).contains(month)
            && (1...CivilDate.daysInMonth(year: year, month: month)).contains(day)
            && (0...23).contains(hour) && (0...59).contains(minute) && (0...60).contains(second)
    }

    /// The instant: with a UTC offset when the source gave one, else the wall
    /// time read in `timeZone` (two passes, so a date across a DST change from
    /// "now" still gets its own offset).
    package func instant(utcOffset: Int?, timeZone: any ZoneOffsets) -> Int64? {
        guard isValid else { return nil }
        let wall = CivilDate.secondsSinceEpoch(
            year: year, month: month, day: day, hour: hour, minute: minute, second: min(second, 59))
        if let utcOffset { return wall - Int64(utcOffset) }
        let first = timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(wall)))
        let second = timeZone.secondsFromGMT(
            for: Date(timeIntervalSince1970: TimeInterval(wall - Int64(first))))
        return wall - Int64(second)
    }
}
