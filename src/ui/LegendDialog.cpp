#include "ui/LegendDialog.h"

#include "lint/OverlayRules.h"
#include "ui/OverlayColours.h"

#include <QDialogButtonBox>
#include <QGridLayout>
#include <QLabel>
#include <QPainter>
#include <QVBoxLayout>

namespace keylens::ui {

namespace {

QLabel* swatch(const QColor& colour, const QString& caption = {})
{
    QPixmap pixmap(40, 16);
    pixmap.fill(Qt::transparent);
    QPainter painter(&pixmap);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setPen(Qt::NoPen);
    painter.setBrush(colour);
    painter.drawRoundedRect(QRectF(0, 0, 40, 16), 3, 3);
    if (!caption.isEmpty()) {
        QFont font = painter.font();
        font.setBold(true);
        font.setPixelSize(10);
        painter.setFont(font);
        painter.setPen(Qt::white);
        painter.drawText(QRectF(0, 0, 40, 16), Qt::AlignCenter, caption);
    }
    auto* label = new QLabel;
    label->setPixmap(pixmap);
    return label;
}

QLabel* explanation(const QString& text)
{
    auto* label = new QLabel(text);
    label->setWordWrap(true);
    label->setMinimumWidth(380);
    return label;
}

} // namespace

LegendDialog::LegendDialog(QWidget* parent)
    : QDialog(parent)
{
    setWindowTitle(QStringLiteral("Legend"));
    auto* grid = new QGridLayout;
    int row = 0;
    auto add = [&](QLabel* sample, const QString& text) {
        grid->addWidget(sample, row, 0, Qt::AlignTop);
        grid->addWidget(explanation(text), row, 1);
        ++row;
    };
    const QPalette palette = this->palette();
    add(swatch(overlay::memoryHeat(0.1, palette)),
        QStringLiteral("<b>Memory, small share.</b> The bar in the Memory column is the row's share of its "
                       "parent's memory; its length and colour grow together."));
    add(swatch(overlay::memoryHeat(0.9, palette)),
        QStringLiteral("<b>Memory, big share.</b> Deep red: this row holds most of its parent's memory. Start "
                       "looking here when the server uses more than it should."));
    const lint::OverlayText big = lint::bigKeyText();
    add(swatch(overlay::bigKey(), QStringLiteral("BIG")),
        QStringLiteral("<b>%1.</b> %2 %3").arg(big.title, big.explanation, lint::bigCollectionProbeText()));
    QColor missing = overlay::missingTtl();
    missing.setAlphaF(0.5f);
    const lint::OverlayText missingTtl = lint::missingTtlText();
    add(swatch(missing), QStringLiteral("<b>%1</b> (TTL column). %2").arg(missingTtl.title, missingTtl.explanation));
    QColor soon = overlay::expiringSoon();
    soon.setAlphaF(0.5f);
    add(swatch(soon), QStringLiteral("<b>Expiring soon</b> (TTL column). A key, or the soonest key of a namespace, "
                                     "expires within a minute."));
    add(swatch(overlay::expired(palette)),
        QStringLiteral("<b>Expired</b> (grey TTL). Its TTL ran out after the scan saw it; the key is gone."));

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(grid);
    layout->addWidget(buttons);
}

} // namespace keylens::ui
