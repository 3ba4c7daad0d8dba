#include "gpuforecast/csv.h"

#include "gpuforecast/error.h"

namespace gpuforecast::csv {

std::vector<std::vector<std::string>> parse(std::string_view text, const std::string& source)
{
    std::vector<std::vector<std::string>> rows;
    std::vector<std::string> row;
    std::string cell;
    bool inQuotes = false, cellStarted = false;
    std::size_t line = 1, quoteLine = 0;
    auto endCell = [&] {
        row.push_back(std::move(cell));
        cell.clear();
        cellStarted = false;
    };
    auto endRow = [&] {
        endCell();
        if (!(row.size() == 1 && row[0].empty()))
            rows.push_back(std::move(row));
        row.clear();
    };
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (inQuotes) {
            if (c == '"') {
                if (i + 1 < text.size() && text[i + 1] == '"') {
                    cell += '"';
                    ++i;
                } else {
                    inQuotes = false;
                }
            } else {
                if (c == '\n')
                    ++line;
                cell += c;
            }
            continue;
        }
        switch (c) {
        case '"':
            if (!cellStarted) {
                inQuotes = true;
                quoteLine = line;
            } else {
                cell += c;
            }
            cellStarted = true;
            break;
        case ',': endCell(); break;
        case '\r': break;
        case '\n':
            endRow();
            ++line;
            break;
        default:
            cell += c;
            cellStarted = true;
        }
    }
    if (inQuotes)
        throwInputError(source, "line " + std::to_string(quoteLine), "unterminated quoted field (truncated file?)");
    if (cellStarted || !row.empty())
        endRow();
    return rows;
}

std::string quote(const std::string& cell)
{
    if (cell.find_first_of(",\"\n\r") == std::string::npos)
        return cell;
    std::string out = "\"";
    for (char c : cell) {
        if (c == '"')
            out += '"';
        out += c;
    }
    return out + "\"";
}

std::string joinRow(const std::vector<std::string>& cells)
{
    std::string out;
    for (std::size_t i = 0; i < cells.size(); ++i) {
        if (i)
            out += ',';
        out += quote(cells[i]);
    }
    return out;
}

} // namespace gpuforecast::csv
