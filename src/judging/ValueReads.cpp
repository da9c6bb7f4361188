#include "judging/ValueReads.h"

#include "inspect/ValuePrefixes.h"
#include "judging/EndOfScan.h"
#include "lint/ValueShape.h"

namespace keylens::judging {

lint::ValueSource valueSourceFor(const scan::ScanOptions& options, const scan::ScanSummary& summary, bool finished)
{
    lint::ValueSource source;
    if (!options.rdbFile.isEmpty()) {
        source.kept = summary.valuePrefixes;
        return source;
    }
    if (!finished)
        return source;
    // Idle times that were not measured (OBJECT denied or failed from the start) are none to protect.
    const inspect::Touching touching =
        summary.access == scan::AccessQuestion::None ? inspect::Touching::Allowed : touchingFor(options);
    source.read = [server = options.connection, touching](const std::vector<QByteArray>& keys) {
        inspect::ValuePrefixes read = inspect::readValuePrefixes(server, keys, touching, lint::ValuePrefixBytes);
        return lint::ValueRead{std::move(read.values), std::move(read.unread)};
    };
    return source;
}

} // namespace keylens::judging
