#include "ui/DetailsForm.h"

#include "keyspace/Units.h"
#include "models/DisplayText.h"
#include "models/EstimatedMemory.h"

#include <QCoreApplication>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>

namespace keylens::ui {

QLabel* createDetailsTitle()
{
    auto* title = new QLabel;
    title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    title->setWordWrap(true);
    QFont font = title->font();
    font.setBold(true);
    font.setPointSizeF(font.pointSizeF() * 1.15);
    title->setFont(font);
    return title;
}

QString breakable(const QString& name)
{
    constexpr int LongestRun = 24;
    const QChar zeroWidthSpace(0x200b);
    QString out;
    out.reserve(name.size() + name.size() / 8);
    int run = 0;
    for (const QChar c : name) {
        out.append(c);
        ++run;
        if (c.isHighSurrogate())
            continue; // never between the two halves of one character
        if (QStringView(u":/._-|@").contains(c) || run >= LongestRun) {
            out.append(zeroWidthSpace);
            run = 0;
        } else if (c.isSpace()) {
            run = 0;
        }
    }
    return out;
}

QLabel* addDetailsField(QFormLayout* form, const QString& name)
{
    auto* label = new QLabel;
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // Wrapped, a long value ("string 468, hash 9,404, list…") makes the row taller rather than the pane wider.
    label->setWordWrap(true);
    label->setObjectName(name);
    form->addRow(name + u':', label);
    return label;
}

std::pair<QLabel*, QLabel*> addDetailsFieldPair(QFormLayout* form, const QString& rowName, const QString& first,
                                                const QString& second)
{
    auto* row = new QWidget;
    auto* layout = new QHBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    QLabel* labels[2] = {};
    for (int i = 0; i < 2; ++i) {
        if (i == 1) {
            auto* separator = new QLabel(QStringLiteral("·"));
            separator->setForegroundRole(QPalette::PlaceholderText);
            layout->addWidget(separator);
        }
        labels[i] = new QLabel;
        labels[i]->setTextInteractionFlags(Qt::TextSelectableByMouse);
        labels[i]->setObjectName(i == 0 ? first : second);
        labels[i]->setToolTip(i == 0 ? first : second); // the row names both only together
        layout->addWidget(labels[i]);
    }
    layout->addStretch();
    form->addRow(rowName + u':', row);
    return {labels[0], labels[1]};
}

QString detailsFieldText(const QWidget* pane, const QString& name)
{
    const auto* label = pane->findChild<QLabel*>(name);
    return label ? label->text() : QString();
}

QString memoryWithPerKeyText(const keyspace::MemoryFigure& figure, bool estimated)
{
    QString memory = models::displayText(keyspace::formatMemory(figure));
    if (estimated)
        memory = models::estimatedCell(memory);
    // Per measured key: the unmeasured ones would drag the mean down for nothing.
    const std::uint64_t measured = figure.keys - std::min(figure.unmeasured, figure.keys);
    if (measured == 0)
        return estimated ? QCoreApplication::translate("DetailsForm", "%1  (estimated)").arg(memory) : memory;
    const QString perKey = models::displayText(keyspace::formatBytes(figure.bytes / measured));
    return memory + (estimated ? QCoreApplication::translate("DetailsForm", "  (%1 per key, estimated)").arg(perKey)
                               : QCoreApplication::translate("DetailsForm", "  (%1 per key)").arg(perKey));
}

} // namespace keylens::ui
