#include "gpuforecast/file_io.h"

#include "gpuforecast/error.h"

#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <memory>
#include <random>

namespace gpuforecast {

bool endsWith(const std::string& s, const std::string& suffix)
{
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

void refuseNulBytes(std::string_view text, const std::string& source)
{
    const std::size_t at = text.find('\0');
    if (at == std::string_view::npos)
        return;
    // Windows PowerShell's ">" and Excel's "Unicode text" write UTF-16: text, but not ours.
    if (text.starts_with("\xFF\xFE") || text.starts_with("\xFE\xFF"))
        throwInputError(source, "", "UTF-16 text; save it as UTF-8");
    const std::string_view before = text.substr(0, at);
    const std::size_t line = 1 + static_cast<std::size_t>(std::count(before.begin(), before.end(), '\n'));
    const std::size_t lineStart = before.rfind('\n');
    const std::size_t column = at - (lineStart == std::string_view::npos ? 0 : lineStart + 1) + 1;
    throwInputError(source, "", "a NUL byte at line " + std::to_string(line) + ", column " + std::to_string(column) +
                                    ": not a text file (a binary file under this name, or a damaged one?)");
}

namespace {

constexpr char kGzipMagic[] = "\x1f\x8b";

bool startsWithGzipMagic(const std::string& bytes) { return bytes.compare(0, 2, kGzipMagic) == 0; }

// A pipe (standard input, `<(zcat ...)`): read to its end or to the limit, gzip or not.
std::string readStream(std::FILE* f, const std::string& source, std::size_t maxBytes)
{
    std::string out;
    char buf[1 << 16];
    for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, f)) > 0;) {
        out.append(buf, n);
        if (out.size() > maxBytes)
            throwInputError(source, "", "larger than the limit of " + std::to_string(maxBytes >> 20) + " MiB");
    }
    if (std::ferror(f))
        throwInputError(source, "", "read failed (" + std::string(std::strerror(errno)) + ")");
    return startsWithGzipMagic(out) ? decompressGzip(out, source, maxBytes) : out;
}

} // namespace

// As `gzip -d` reads: members one after another (`cat a.gz b.gz`), and anything after the last
// that is not another member (padding, a stray newline) ignored.
std::string decompressGzip(const std::string& data, const std::string& source, std::size_t maxBytes)
{
    if (data.size() > std::numeric_limits<uInt>::max()) // zlib counts its input in uInt
        throwInputError(source, "", "larger than the limit of " + std::to_string(maxBytes >> 20) + " MiB");
    z_stream zs{};
    if (inflateInit2(&zs, 15 + 16) != Z_OK) // 15 + 16: the gzip wrapper
        throwInputError(source, "", "cannot start decompression");
    zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
    zs.avail_in = uInt(data.size());
    auto anotherMember = [&] { return zs.avail_in >= 2 && zs.next_in[0] == 0x1f && zs.next_in[1] == 0x8b; };
    std::string out;
    char buf[1 << 16];
    for (int rc = Z_OK; rc != Z_STREAM_END || anotherMember();) {
        if (rc == Z_STREAM_END)
            inflateReset(&zs);
        zs.next_out = reinterpret_cast<Bytef*>(buf);
        zs.avail_out = sizeof buf;
        rc = inflate(&zs, Z_NO_FLUSH);
        if (rc != Z_OK && rc != Z_STREAM_END) {
            const std::string why = rc == Z_BUF_ERROR ? "truncated gzip data"
                                    : rc == Z_MEM_ERROR ? "out of memory while decompressing"
                                                        : "corrupt gzip data" + (zs.msg ? " (" + std::string(zs.msg) + ")" : "");
            inflateEnd(&zs);
            throwInputError(source, "", why);
        }
        out.append(buf, sizeof buf - zs.avail_out);
        if (out.size() > maxBytes) {
            inflateEnd(&zs);
            throwInputError(source, "", "larger than the limit of " + std::to_string(maxBytes >> 20) + " MiB");
        }
    }
    inflateEnd(&zs);
    return out;
}

std::string readStandardInput(std::size_t maxBytes)
{
    return readStream(stdin, "standard input", maxBytes);
}

std::string readFile(const std::string& path, std::size_t maxBytes)
{
    std::error_code ec;
    if (std::filesystem::is_fifo(path, ec)) {
        std::FILE* f = std::fopen(path.c_str(), "rb");
        if (!f)
            throwInputError(path, "", "cannot open (" + std::string(std::strerror(errno)) + ")");
        const std::unique_ptr<std::FILE, int (*)(std::FILE*)> closer(f, std::fclose);
        return readStream(f, path, maxBytes);
    }
    if (!std::filesystem::is_regular_file(path, ec))
        throwInputError(path, "", std::filesystem::exists(path, ec) ? "not a regular file" : "no such file");
    const auto size = std::filesystem::file_size(path, ec);
    if (ec)
        throwInputError(path, "", "cannot read its size (" + ec.message() + ")");
    if (size > maxBytes)
        throwInputError(path, "", "larger than the limit of " + std::to_string(maxBytes >> 20) + " MiB");
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throwInputError(path, "", "cannot open (" + std::string(std::strerror(errno)) + ")");
    std::string out(size, '\0');
    in.read(out.data(), static_cast<std::streamsize>(size));
    if (!in && !in.eof())
        throwInputError(path, "", "read failed");
    out.resize(static_cast<std::size_t>(in.gcount()));
    // Taken by its bytes, as a pipe is: gzip data under another name (a compressed table saved as
    // .csv) is read as what it is, and a .gz of anything else refused (zlib would read it as plain
    // text, and the CSV parser said "header: missing column 'op'").
    if (startsWithGzipMagic(out))
        return decompressGzip(out, path, maxBytes);
    if (endsWith(path, ".gz"))
        throwInputError(path, "", "not gzip data, though the name ends in .gz");
    return out;
}

namespace {

// A file that cannot be opened for writing: a bad path or permission is the input's fault (exit 2),
// a full or read-only disk the machine's (exit 1).
[[noreturn]] void throwCannotWrite(const std::string& path, int err)
{
    const std::string what = "cannot write (" + std::string(std::strerror(err)) + ")";
    if (err == ENOSPC || err == EDQUOT || err == EROFS || err == EIO)
        throwOutputError(path, what);
    throwInputError(path, "", what);
}

// Writes straight into `path`: for targets that are not regular files, which a rename would
// replace (`--out /dev/null`, a FIFO a reader waits on, /dev/stdout).
void writeInPlace(const std::string& path, const std::string& content)
{
    // The process's own streams are written where they already point: reopened, a redirected
    // stdout would be truncated (`>> log` lost its earlier lines).
    if (path == "/dev/stdout" || path == "/dev/fd/1" || path == "/proc/self/fd/1" || path == "/dev/stderr" ||
        path == "/dev/fd/2" || path == "/proc/self/fd/2") {
        std::FILE* stream = path.back() == '1' || path == "/dev/stdout" ? stdout : stderr;
        errno = 0;
        if (std::fwrite(content.data(), 1, content.size(), stream) != content.size() || std::fflush(stream) != 0)
            throwOutputError(path, "write failed (" + std::string(errno ? std::strerror(errno) : "short write") + ")");
        return;
    }
    std::FILE* f = std::fopen(path.c_str(), "ab"); // a device or FIFO: append never truncates
    if (!f)
        throwCannotWrite(path, errno);
    errno = 0;
    const bool written = std::fwrite(content.data(), 1, content.size(), f) == content.size() && std::fflush(f) == 0;
    const int writeError = errno;
    const bool closed = std::fclose(f) == 0;
    const int err = written ? errno : writeError;
    if (!written || !closed)
        throwOutputError(path, "write failed (" + std::string(err ? std::strerror(err) : "short write") + ")");
}

} // namespace

namespace {

// A file written beside its target under a temporary name, not yet renamed over it. `tmp` is
// empty where the target is written in place instead (a terminal, a FIFO, /dev/stdout).
struct StagedFile {
    std::string path; // as the caller named it, for errors
    std::filesystem::path target, tmp;
    std::filesystem::file_status before;
};

StagedFile stageFile(const std::string& path, const std::string& content)
{
    namespace fs = std::filesystem;
    std::error_code statError;
    // /dev/stdout, /dev/fd/N, /proc/self/fd/N name whatever the process writes to, a terminal or
    // an appended log: written into, never replaced (a rename would swap the log for our output).
    const std::string lexical = fs::path(path).lexically_normal().string();
    if (lexical.rfind("/dev/", 0) == 0 || lexical.rfind("/proc/", 0) == 0) {
        writeInPlace(path, content);
        return {path, fs::path(path), {}, {}};
    }
    // A symbolic link is written through, as any editor does: the temporary goes beside the file it
    // names (which may not exist yet) and replaces that, not the link.
    fs::path target(path);
    for (int hops = 0; hops < 40 && fs::is_symlink(fs::symlink_status(target, statError)); ++hops) {
        const fs::path next = fs::read_symlink(target, statError);
        if (statError)
            break;
        target = next.is_absolute() ? next : target.parent_path() / next;
    }
    const auto st = fs::status(target, statError);
    if (fs::exists(st) && !fs::is_regular_file(st)) { // a device or FIFO cannot be replaced at all
        if (fs::is_directory(st))
            throwInputError(path, "", "is a folder, not a file");
        writeInPlace(target.string(), content);
        return {path, target, {}, st};
    }
    std::random_device rd;
    const fs::path tmp = target.parent_path() /
                         (target.filename().string() + ".tmp-" + std::to_string(rd() % 1000000u));
    {
        std::FILE* f = std::fopen(tmp.c_str(), "wb");
        if (!f)
            throwCannotWrite(path, errno);
        const bool ok = std::fwrite(content.data(), 1, content.size(), f) == content.size() &&
                        std::fflush(f) == 0;
        if (std::fclose(f) != 0 || !ok) {
            std::error_code ec;
            fs::remove(tmp, ec);
            throwOutputError(path, "write failed (disk full?)");
        }
    }
    return {path, target, tmp, st};
}

void discard(const StagedFile& staged)
{
    std::error_code ec;
    if (!staged.tmp.empty())
        std::filesystem::remove(staged.tmp, ec);
}

void commit(const StagedFile& staged)
{
    namespace fs = std::filesystem;
    if (staged.tmp.empty())
        return;
    std::error_code ec;
    if (fs::exists(staged.before)) // the replacement keeps the file's permissions (a private 0600 file stays private)
        fs::permissions(staged.tmp, staged.before.permissions(), fs::perm_options::replace, ec);
    fs::rename(staged.tmp, staged.target, ec);
    if (ec) {
        const std::string why = ec.message(); // before remove() overwrites ec ("Success")
        discard(staged);
        throwOutputError(staged.path, "cannot replace the file (" + why + ")");
    }
}

} // namespace

void writeFileAtomically(const std::string& path, const std::string& content) { commit(stageFile(path, content)); }

void writeFilesAtomically(const std::vector<std::pair<std::string, std::string>>& files)
{
    std::vector<StagedFile> staged;
    try {
        for (const auto& [path, content] : files)
            staged.push_back(stageFile(path, content));
    } catch (...) {
        for (const auto& s : staged)
            discard(s);
        throw;
    }
    // Each rename replaces a regular file in its own folder, which fails only if the folder's
    // permissions changed since its temporary was written there.
    for (std::size_t i = 0; i < staged.size(); ++i) {
        try {
            commit(staged[i]);
        } catch (...) {
            for (std::size_t j = i + 1; j < staged.size(); ++j)
                discard(staged[j]);
            throw;
        }
    }
}

std::string gzipCompress(const std::string& path, const std::string& content)
{
    z_stream zs{};
    // windowBits 15 + 16 selects the gzip wrapper, so `zcat` reads the result.
    if (deflateInit2(&zs, 9, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        throwOutputError(path, "cannot start compression");
    std::string out(deflateBound(&zs, uLong(content.size())) + 64, '\0');
    zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(content.data()));
    zs.avail_in = uInt(content.size());
    zs.next_out = reinterpret_cast<Bytef*>(out.data());
    zs.avail_out = uInt(out.size());
    const int rc = deflate(&zs, Z_FINISH);
    out.resize(zs.total_out);
    deflateEnd(&zs);
    if (rc != Z_STREAM_END)
        throwOutputError(path, "compression failed");
    return out;
}

void writeGzipFileAtomically(const std::string& path, const std::string& content)
{
    writeFileAtomically(path, gzipCompress(path, content));
}

} // namespace gpuforecast
