#include "ui/DetailsForm.h"

#include "keyspace/Units.h"
#include "models/DisplayText.h"
#include "models/EstimatedMemory.h"

#include <QCoreApplication>
#include <QFormLayout>
#include <QLabel>
#include <QLayout>

#include <algorithm>

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

namespace {

// Two facts and the dot between them on one line where they fit whole; else the second under the first (the dot
// then says nothing), each wrapped to the width. An HBox shrank both into narrow columns of three lines each
// ("2.18 MiB (estimated by the | server from 5 | elements)") beside empty room; unwrapped, they held the pane
// wider than its tab.
class PairLayout : public QLayout
{
public:
    PairLayout(QLabel* first, QLabel* dot, QLabel* second, QWidget* parent)
        : QLayout(parent)
    {
        setContentsMargins(0, 0, 0, 0);
        for (QLabel* label : {first, dot, second}) {
            addChildWidget(label);
            m_items.append(new QWidgetItem(label));
        }
    }
    ~PairLayout() override { qDeleteAll(m_items); }

    void addItem(QLayoutItem* item) override { m_items.append(item); }
    int count() const override { return int(m_items.size()); }
    QLayoutItem* itemAt(int index) const override { return m_items.value(index); }
    QLayoutItem* takeAt(int index) override
    {
        return index >= 0 && index < m_items.size() ? m_items.takeAt(index) : nullptr;
    }
    QSize sizeHint() const override
    {
        int width = 0, height = 0;
        for (QLayoutItem* item : m_items) {
            width += lineWidth(item) + gap();
            height = std::max(height, item->sizeHint().height());
        }
        return {width - gap(), height};
    }
    QSize minimumSize() const override
    {
        // One under the other: as narrow as the wider of the two can wrap.
        return {std::max(m_items[0]->minimumSize().width(), m_items[2]->minimumSize().width()),
                m_items[0]->minimumSize().height()};
    }
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override
    {
        if (inOneLine(width))
            return sizeHint().height();
        return heightOf(m_items[0], width) + gap() + heightOf(m_items[2], width);
    }
    void setGeometry(const QRect& rect) override
    {
        QLayout::setGeometry(rect);
        const bool oneLine = inOneLine(rect.width());
        m_items[1]->widget()->setVisible(oneLine);
        if (oneLine) {
            int x = rect.left();
            for (QLayoutItem* item : m_items) {
                item->setGeometry(QRect(x, rect.top(), lineWidth(item), rect.height()));
                x += lineWidth(item) + gap();
            }
            return;
        }
        const int firstHeight = heightOf(m_items[0], rect.width());
        m_items[0]->setGeometry(QRect(rect.left(), rect.top(), rect.width(), firstHeight));
        m_items[2]->setGeometry(
            QRect(rect.left(), rect.top() + firstHeight + gap(), rect.width(), heightOf(m_items[2], rect.width())));
    }

private:
    int gap() const { return 4; }
    bool inOneLine(int width) const { return sizeHint().width() <= width; }
    // A label's text on one line: a wrapped label's size hint is narrower on purpose (QLabel makes a long text a
    // block of a few lines).
    static int lineWidth(QLayoutItem* item)
    {
        const auto* label = qobject_cast<const QLabel*>(item->widget());
        if (!label || !label->wordWrap())
            return item->sizeHint().width();
        const QMargins margins = label->contentsMargins();
        return label->fontMetrics().horizontalAdvance(label->text()) + margins.left() + margins.right() +
               2 * label->margin() + 1;
    }
    static int heightOf(QLayoutItem* item, int width)
    {
        return item->hasHeightForWidth() ? item->heightForWidth(width) : item->sizeHint().height();
    }

    QList<QLayoutItem*> m_items;
};

} // namespace

std::pair<QLabel*, QLabel*> addDetailsFieldPair(QFormLayout* form, const QString& rowName, const QString& first,
                                                const QString& second)
{
    auto* row = new QWidget;
    QLabel* labels[2] = {};
    for (int i = 0; i < 2; ++i) {
        labels[i] = new QLabel;
        labels[i]->setTextInteractionFlags(Qt::TextSelectableByMouse);
        labels[i]->setWordWrap(true);
        labels[i]->setObjectName(i == 0 ? first : second);
        labels[i]->setToolTip(i == 0 ? first : second); // the row names both only together
    }
    auto* dot = new QLabel(QStringLiteral("·"));
    dot->setForegroundRole(QPalette::PlaceholderText);
    new PairLayout(labels[0], dot, labels[1], row);
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
