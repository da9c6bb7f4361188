#include "cli/GrowthGateOption.h"

#include "usage/OptionValues.h"

#include <cmath>

namespace keylens::cli {

std::optional<history::GrowthGate> parseGrowthGate(const QString& text, QString* error)
{
    const QStringList parts = text.split(QLatin1Char(':'));
    QString percent = parts.value(0);
    if (percent.endsWith(QLatin1Char('%')))
        percent.chop(1);
    history::GrowthGate gate;
    bool ok = false;
    gate.percent = percent.toDouble(&ok);
    ok = ok && parts.size() <= 2 && gate.percent >= 0 && std::isfinite(gate.percent);
    if (ok && parts.size() == 2) {
        const std::optional<std::uint64_t> bytes = usage::parseByteSize(parts[1]);
        ok = bytes.has_value();
        gate.bytes = bytes.value_or(0);
    }
    if (!ok) {
        *error = QStringLiteral("--fail-on-growth takes PERCENT or PERCENT:BYTES (50, 50:10MB), not '%1'").arg(text);
        return std::nullopt;
    }
    return gate;
}

} // namespace keylens::cli
