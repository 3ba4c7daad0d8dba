// Fuzzes decompressGzip, which inflates every gzip input (a .gz file, `--in -`): any bytes
// either inflate within the limit or throw ForecastError; and whatever the bytes, gzip-compressed
// and inflated again they come back unchanged, with or without bytes that are not another member
// after them (as `gzip -d` ignores them).
#include "fuzz_support.h"

#include "gpuforecast/file_io.h"

#include <zlib.h>

using namespace gpuforecast;

namespace {

constexpr std::size_t kLimit = 1 << 20;

std::string gzipOf(const std::string& text)
{
    z_stream zs{};
    GF_FUZZ_CHECK(deflateInit2(&zs, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) == Z_OK, "deflateInit2");
    std::string out(deflateBound(&zs, uLong(text.size())) + 64, '\0');
    zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
    zs.avail_in = uInt(text.size());
    zs.next_out = reinterpret_cast<Bytef*>(out.data());
    zs.avail_out = uInt(out.size());
    GF_FUZZ_CHECK(deflate(&zs, Z_FINISH) == Z_STREAM_END, "deflate");
    out.resize(zs.total_out);
    deflateEnd(&zs);
    return out;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string bytes = fuzz::textOf(data, size);
    try {
        GF_FUZZ_CHECK(decompressGzip(bytes, "fuzz.gz", kLimit).size() <= kLimit, "inflated past the limit");
    } catch (const ForecastError&) {
    }
    const std::string packed = gzipOf(bytes);
    GF_FUZZ_CHECK(decompressGzip(packed, "packed.gz", kLimit) == bytes, "round trip");
    GF_FUZZ_CHECK(decompressGzip(packed + packed, "twice.gz", 2 * kLimit) == bytes + bytes, "two members");
    if (bytes.size() < 2 || bytes[0] != '\x1f' || bytes[1] != '\x8b') // not the start of another member
        GF_FUZZ_CHECK(decompressGzip(packed + bytes, "trailing.gz", kLimit) == bytes, "trailing bytes ignored");
    return 0;
}
