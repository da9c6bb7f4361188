#include "ui/OverlayColours.h"

#include <algorithm>
#include <cmath>

namespace keylens::ui::overlay {

QColor memoryHeat(double shareOfTotal, const QPalette& palette)
{
    // 0.1% -> 0, 1% -> 0.37, 10% -> 0.74, 50% -> 1: a decade of share is a clear step of colour.
    const double share = std::max(shareOfTotal, 1e-9);
    const double f = std::clamp((std::log10(share) + 3.0) / (std::log10(0.5) + 3.0), 0.0, 1.0);
    // Hue slides from amber (40°) to red (0°); the bar gets more opaque as it grows, so a big share
    // stands out even before one reads the number.
    QColor colour = QColor::fromHsvF(float((1.0 - f) * 40.0 / 360.0), float(0.45 + 0.45 * f), 0.92f);
    const bool dark = palette.color(QPalette::Base).lightness() < 128;
    colour.setAlphaF(float((dark ? 0.45 : 0.3) + 0.5 * f));
    return colour;
}

QColor bigKey()
{
    return QColor(0xd6, 0x45, 0x45);
}

QColor library()
{
    return QColor(0x2a, 0x7f, 0x86);
}

QColor missingTtl()
{
    return QColor(0x9b, 0x59, 0xd0); // purple: apart from the amber-to-red memory heat
}

QColor expiringSoon()
{
    return QColor(0x3a, 0x7b, 0xd5);
}

QColor cold()
{
    return QColor(0x2a, 0xb7, 0xca);
}

QColor writes(const QPalette& palette)
{
    const bool dark = palette.color(QPalette::Base).lightness() < 128;
    return dark ? QColor(0x6f, 0xcf, 0x7a) : QColor(0x2e, 0x8b, 0x3e);
}

QColor finding(int severity)
{
    switch (severity) {
    case 2:
        return QColor(0xd6, 0x45, 0x45);
    case 1:
        return QColor(0xe0, 0x8a, 0x00);
    default:
        break;
    }
    return QColor(0x6c, 0x7a, 0x89);
}

QColor keyAndNamespace()
{
    return QColor(0x4a, 0x6f, 0xa5);
}

QColor errorText(const QPalette& palette)
{
    const bool dark = palette.color(QPalette::Window).lightness() < 128;
    return dark ? finding(2).lighter(140) : finding(2).darker(130);
}

QColor growth(const QPalette& palette)
{
    return errorText(palette);
}

QColor shrinkage(const QPalette& palette)
{
    const bool dark = palette.color(QPalette::Window).lightness() < 128;
    const QColor green(46, 139, 87);
    return dark ? green.lighter(140) : green.darker(115);
}

QColor keysSeries()
{
    return QColor(0x3b, 0x7d, 0xd8);
}

QColor memorySeries()
{
    return QColor(0xd6, 0x7a, 0x45);
}

QColor expired(const QPalette& palette)
{
    return palette.color(QPalette::Disabled, QPalette::Text);
}

} // namespace keylens::ui::overlay
