#pragma once
// Reading and writing whole files safely: size limits (a spec sheet is kilobytes, so a gigabyte
// "spec" is a mistake, not a spec), transparent gzip, and atomic replacement on write so a crash
// never leaves half a file where a good one was.
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gpuforecast {

inline constexpr std::size_t kMaxJsonBytes = 64u << 20;   // 64 MiB: configs, specs, weights, scenarios
inline constexpr std::size_t kMaxTableBytes = 1u << 30;   // 1 GiB uncompressed: kernel measurement tables

// Reads the file, decompressing gzip data (found by its magic bytes, whatever the name; a name
// ending in .gz must hold gzip). Throws ForecastError naming the file. A pipe (a FIFO,
// `<(zcat t.csv.gz)`) is read until its writer closes it.
std::string readFile(const std::string& path, std::size_t maxBytes = kMaxJsonBytes);
// Standard input, as readFile reads a pipe; errors name it "standard input".
std::string readStandardInput(std::size_t maxBytes);
// Gzip data already in memory, inflated up to maxBytes; errors name `source`. Every gzip the
// engine reads, from a file or a pipe, goes through here.
std::string decompressGzip(const std::string& data, const std::string& source, std::size_t maxBytes);

// Writes to "<path>.tmp-XXXX" in the same folder, flushes, then renames over path.
void writeFileAtomically(const std::string& path, const std::string& content);

// Same, gzip-compressed (for the tile database and shipped datasets).
void writeGzipFileAtomically(const std::string& path, const std::string& content);
// `content` as gzip data; errors name `path`, the file it is meant for.
std::string gzipCompress(const std::string& path, const std::string& content);

// Files that belong together (a set of trained weights), each as (path, content): every one is
// written under its temporary name first, and only when all are written are they renamed over
// their paths. A failure on the way (a full disk, a folder where a file should be) leaves every
// old file as it was, never a mix of old and new.
void writeFilesAtomically(const std::vector<std::pair<std::string, std::string>>& files);

bool endsWith(const std::string& s, const std::string& suffix);

// Every format we read is text. A NUL byte means a binary file under a text name, or a damaged
// one; the parsers had stopped at it ("2\0" read as 2) or blamed "unexpected end of input".
// Throws ForecastError naming `source` and the byte's line and column.
void refuseNulBytes(std::string_view text, const std::string& source);

} // namespace gpuforecast
