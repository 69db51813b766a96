#include "exiv2_reader.h"

#include <exiv2/exiv2.hpp>

#include <climits>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

// See the header: gexiv2 0.14.0's answers, without its preview listing.

struct pf_exiv2_image {
    // Out of exiv2 0.27's std::auto_ptr (deprecated) at once.
    std::unique_ptr<Exiv2::Image> image;
    // Read once at open, as gexiv2 does: the answers do not change afterwards.
    std::string mimeType;
    int pixelWidth = 0;
    int pixelHeight = 0;
};

namespace {

char *copyOf(const std::string &text) {
    char *copy = static_cast<char *>(std::malloc(text.size() + 1));
    if (copy != nullptr) std::memcpy(copy, text.c_str(), text.size() + 1);
    return copy;
}

bool hasPrefix(const char *key, const char *prefix) { return std::strncmp(key, prefix, std::strlen(prefix)) == 0; }

bool equalIgnoringASCIICase(const std::string &a, const char *b) {
    size_t length = std::strlen(b);
    if (a.size() != length) return false;
    for (size_t i = 0; i < length; i++) {
        auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
        if (lower(a[i]) != lower(b[i])) return false;
    }
    return true;
}

// What a look-up needs of an Exif key: its group's IFD id and its text as exiv2
// spells it.
struct ExifKeyName {
    int group;
    std::string text;
};

// ExifKey's parse of a key's text (group and tag names found by linear search)
// costs more than the look-up itself, and every file is asked the same few dozen
// keys: each is parsed once per process (readers on several threads share the
// table). A key exiv2 does not know throws, as ExifKey does.
ExifKeyName parsed(const char *key) {
    static std::mutex lock;
    static std::unordered_map<std::string, ExifKeyName> known;
    std::string text(key);
    {
        std::lock_guard<std::mutex> guard(lock);
        auto it = known.find(text);
        if (it != known.end()) return it->second;
    }
    Exiv2::ExifKey exifKey(text);
    ExifKeyName name{exifKey.ifdId(), exifKey.key()};
    std::lock_guard<std::mutex> guard(lock);
    // Bounded whatever the callers ask: past that, keys are parsed every time.
    if (known.size() < 256) known.emplace(text, name);
    return name;
}

// The first datum of `key`, as ExifData::findKey finds it. That one builds every
// datum's key string to compare it; a key names its group, and group names are
// one per IFD id, so the data of other groups are passed over by number first.
Exiv2::ExifData::iterator find(Exiv2::ExifData &data, const char *key) {
    const ExifKeyName name = parsed(key);
    for (auto it = data.begin(); it != data.end(); ++it) {
        if (it->ifdId() == name.group && it->key() == name.text) return it;
    }
    return data.end();
}

Exiv2::XmpData::iterator find(Exiv2::XmpData &data, const char *key) { return data.findKey(Exiv2::XmpKey(key)); }

// gexiv2's look-up: the key's first datum, or, when that one holds no value
// component, the next datum (of whatever key) that does. gexiv2 0.14 skips
// forward that way, so this does too: the answers must be the same.
template <typename Data> typename Data::iterator firstWithValue(Data &data, const char *key) {
    auto it = find(data, key);
    while (it != data.end() && it->count() == 0) ++it;
    return it;
}

// gexiv2's "has tag": some datum of that key (compared ignoring ASCII case) holds
// a value. Passed over by group first, as in `find` (no two group names differ
// in case only).
bool hasValue(Exiv2::ExifData &data, const char *key) {
    const int group = parsed(key).group;
    for (const auto &datum : data) {
        if (datum.ifdId() == group && datum.count() > 0 && equalIgnoringASCIICase(datum.key(), key)) return true;
    }
    return false;
}

bool hasValue(Exiv2::XmpData &data, const char *key) {
    for (const auto &datum : data) {
        if (datum.count() > 0 && equalIgnoringASCIICase(datum.key(), key)) return true;
    }
    return false;
}

template <typename Data> long longValue(Data &data, const char *key) {
    auto it = firstWithValue(data, key);
    return it == data.end() ? 0 : it->toLong();
}

// gexiv2 casts the long to its orientation enum (32 bits) before the range check.
bool isOrientation(long value) {
    uint32_t narrowed = static_cast<uint32_t>(value);
    return narrowed >= 1 && narrowed <= 8;
}

// gexiv2_metadata_try_get_orientation, step by step: Minolta's makernote
// rotations first (some Minolta cameras write a wrong Exif.Image.Orientation),
// then Exif.Image.Orientation, then XMP, where 0.14.0 reads Xmp.tiff.ImageWidth
// (not Xmp.tiff.Orientation), kept so that nothing changes.
int orientationOf(Exiv2::Image &image) {
    Exiv2::ExifData &exif = image.exifData();
    if (!exif.empty()) {
        for (const char *key : {"Exif.MinoltaCs7D.Rotation", "Exif.MinoltaCs5D.Rotation"}) {
            if (!hasValue(exif, key)) continue;
            switch (longValue(exif, key)) {
            case 76: return 6;
            case 82: return 8;
            case 72: return 0;
            default: break;
            }
        }
        long value = longValue(exif, "Exif.Image.Orientation");
        if (isOrientation(value)) return static_cast<int>(value);
    }
    Exiv2::XmpData &xmp = image.xmpData();
    const char *fallback = "Xmp.tiff.ImageWidth";
    if (!hasValue(xmp, fallback)) return 0;
    long value = longValue(xmp, fallback);
    return isOrientation(value) ? static_cast<int>(value) : 0;
}

} // namespace

extern "C" pf_exiv2_image *pf_exiv2_open(const uint8_t *bytes, size_t count, int list_previews, char **failure) {
    *failure = nullptr;
    try {
        if (count > static_cast<size_t>(LONG_MAX)) {
            *failure = copyOf("the file is larger than exiv2 reads");
            return nullptr;
        }
        auto opened = std::make_unique<pf_exiv2_image>();
        // Over a MemIo of the caller's bytes: exiv2 copies them only to write, never done here.
        opened->image.reset(Exiv2::ImageFactory::open(bytes, static_cast<long>(count)).release());
        opened->image->readMetadata();
        opened->mimeType = opened->image->mimeType();
        opened->pixelWidth = opened->image->pixelWidth();
        opened->pixelHeight = opened->image->pixelHeight();
        if (list_previews) {
            Exiv2::PreviewManager previews(*opened->image);
            (void)previews.getPreviewProperties();
        }
        return opened.release();
    } catch (const Exiv2::AnyError &error) {
        *failure = copyOf(error.what());
    } catch (const std::exception &error) {
        *failure = copyOf(std::string("exiv2 failed on its metadata: ") + error.what());
    } catch (...) {
        *failure = copyOf("exiv2 failed on its metadata");
    }
    return nullptr;
}

extern "C" void pf_exiv2_close(pf_exiv2_image *image) { delete image; }

extern "C" int pf_exiv2_pixel_width(const pf_exiv2_image *image) { return image->pixelWidth; }

extern "C" int pf_exiv2_pixel_height(const pf_exiv2_image *image) { return image->pixelHeight; }

extern "C" const char *pf_exiv2_mime_type(const pf_exiv2_image *image) { return image->mimeType.c_str(); }

extern "C" int pf_exiv2_has_exif(const pf_exiv2_image *image) {
    try {
        return image->image->exifData().empty() ? 0 : 1;
    } catch (...) {
        return 0;
    }
}

extern "C" int pf_exiv2_has_xmp(const pf_exiv2_image *image) {
    try {
        return image->image->xmpData().empty() ? 0 : 1;
    } catch (...) {
        return 0;
    }
}

extern "C" int pf_exiv2_orientation(pf_exiv2_image *image) {
    try {
        return orientationOf(*image->image);
    } catch (...) {
        return 0;
    }
}

extern "C" char *pf_exiv2_tag_string(pf_exiv2_image *image, const char *key) {
    try {
        if (hasPrefix(key, "Xmp.")) {
            Exiv2::XmpData &xmp = image->image->xmpData();
            auto it = firstWithValue(xmp, key);
            return it == xmp.end() ? nullptr : copyOf(it->toString());
        }
        if (hasPrefix(key, "Exif.")) {
            Exiv2::ExifData &exif = image->image->exifData();
            auto it = firstWithValue(exif, key);
            return it == exif.end() ? nullptr : copyOf(it->toString());
        }
    } catch (...) {
    }
    return nullptr;
}

extern "C" uint8_t *pf_exiv2_tag_raw(pf_exiv2_image *image, const char *key, size_t *count) {
    *count = 0;
    try {
        if (!hasPrefix(key, "Exif.")) return nullptr;
        Exiv2::ExifData &exif = image->image->exifData();
        auto it = firstWithValue(exif, key);
        if (it == exif.end()) return nullptr;
        long size = it->size();
        if (size <= 0) return nullptr;
        std::unique_ptr<uint8_t, decltype(&std::free)> bytes(
            static_cast<uint8_t *>(std::malloc(static_cast<size_t>(size))), &std::free);
        if (bytes == nullptr) return nullptr;
        it->copy(bytes.get(), Exiv2::invalidByteOrder);
        *count = static_cast<size_t>(size);
        return bytes.release();
    } catch (...) {
        return nullptr;
    }
}
