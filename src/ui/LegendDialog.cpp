#include "ui/LegendDialog.h"

#include "lint/OverlayRules.h"
#include "lint/Rules.h"
#include "ui/OverlayColours.h"

#include <QDialogButtonBox>
#include <QGridLayout>
#include <QLabel>
#include <QPainter>
#include <QScrollArea>
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
    label->setMinimumWidth(300);
    return label;
}

} // namespace

LegendDialog::LegendDialog(QWidget* parent)
    : QDialog(parent)
{
    setWindowTitle(tr("Legend"));
    auto* grid = new QGridLayout;
    int row = 0;
    auto add = [&](QLabel* sample, const QString& text) {
        grid->addWidget(sample, row, 0, Qt::AlignTop);
        grid->addWidget(explanation(text), row, 1);
        ++row;
    };
    const QPalette palette = this->palette();
    add(swatch(overlay::memoryHeat(0.001, palette)),
        tr("<b>Memory bar.</b> Its length is the row's share of its parent's memory; its colour is "
           "the row's share of the whole keyspace, pale at 0.1% and less."));
    add(swatch(overlay::memoryHeat(0.01, palette)), tr("<b>1%</b> of the keyspace's memory."));
    add(swatch(overlay::memoryHeat(0.1, palette)), tr("<b>10%</b> of the keyspace's memory."));
    add(swatch(overlay::memoryHeat(0.5, palette)),
        tr("<b>Half or more</b> of the keyspace's memory: deep red. Start looking here when the server "
           "uses more than it should."));
    const lint::OverlayText big = lint::bigKeyText();
    add(swatch(overlay::bigKey(), QStringLiteral("BIG")),
        tr("<b>%1.</b> %2 %3").arg(big.title, big.explanation, lint::bigCollectionProbeText()));
    add(swatch(overlay::library(), QStringLiteral("bullmq")),
        tr("<b>Library layout.</b> The subtree is the keys a library writes (BullMQ, Sidekiq, Celery, RQ, "
           "sessions, caches, rate limiters), recognised from its documented key names and types. The "
           "naming rules skip it; memory and TTL still count."));
    add(swatch(overlay::keyAndNamespace(), QStringLiteral("KEY")),
        tr("<b>A key and a namespace.</b> The row is a key (config:app) with keys below it "
           "(config:app:db); its Keys say \"1 + 3\": its own and those below. The details pane has a "
           "tab for the key's value and one for the namespace."));
    QColor missing = overlay::missingTtl();
    missing.setAlphaF(0.5f);
    const lint::OverlayText missingTtl = lint::missingTtlText();
    add(swatch(missing), tr("<b>%1</b> (TTL column). %2").arg(missingTtl.title, missingTtl.explanation));
    QColor soon = overlay::expiringSoon();
    soon.setAlphaF(0.5f);
    add(swatch(soon), tr("<b>Expiring soon</b> (TTL column). A key, or the soonest key of a namespace, "
                         "expires within a minute."));
    // The Cold column's tint, as the tree paints a namespace whose memory is all cold (KeyTreeDelegate).
    QColor cold = overlay::cold();
    cold.setAlphaF(0.45f);
    add(swatch(cold), tr("<b>Cold</b> (Cold column). The share of the row's memory in keys idle past the cold "
                         "threshold (Scan ▸ Measure idle times): the more of it, the icier the cell."));
    add(swatch(overlay::expired(palette)),
        tr("<b>Expired</b> (grey TTL). Its TTL ran out after the scan saw it; the key is gone."));
    // While comparing with an earlier scan (Scan > Compare with…).
    add(swatch(overlay::growth(palette)),
        tr("<b>Grew</b> (Δ Keys, Δ Memory, and the treemap coloured by growth) since the scan compared with; "
           "\"new\" where the namespace was not there then."));
    add(swatch(overlay::shrinkage(palette)),
        tr("<b>Shrank</b> since the scan compared with. A struck-out row is a namespace or pattern gone since, with "
           "its old figures."));
    add(swatch(overlay::expired(palette)),
        tr("<b>Unchanged</b> (a faint 0 and 0 B) since the scan compared with. An empty Δ is a row that scan did not "
           "list on its own: it keeps the biggest namespaces, a few levels deep, and counts keys by pattern, so a key "
           "whose pattern held many keys (user:&lt;int&gt;) has none; a key that is a pattern of its own has its "
           "change."));

    // The Findings column: one colour per severity, then what each rule checks, in its own words.
    const QString findingsText[] = {
        tr("<b>Findings, info</b> (Findings column). Worth knowing; nothing is wrong yet."),
        tr("<b>Findings, warnings.</b> Names that will cost time or memory as the keyspace grows."),
        tr("<b>Findings, errors.</b> Names that break tools or the server's limits; fix these first."),
    };
    for (const lint::Severity severity : {lint::Severity::Error, lint::Severity::Warning, lint::Severity::Info}) {
        QColor tint = overlay::finding(int(severity));
        tint.setAlphaF(0.5f);
        add(swatch(tint),
            findingsText[int(severity)] + tr(" A row counts the findings of every key below it and takes the "
                                             "colour of the worst."));
    }
    auto* rulesHeading = new QLabel(tr("<b>Naming rules</b>, with the colour of their default severity "
                                       "(a profile can change it):"));
    grid->addWidget(rulesHeading, row++, 0, 1, 2);
    for (const lint::RuleInfo& rule : lint::allRules()) {
        auto* id = new QLabel(tr("<span style='color:%1'>●</span>&nbsp;<code>%2</code>")
                                  .arg(overlay::finding(int(rule.severity)).name(), QLatin1String(rule.id)));
        id->setToolTip(tr("Default severity: %1").arg(QLatin1String(lint::severityName(rule.severity))));
        grid->addWidget(id, row, 0, Qt::AlignTop);
        grid->addWidget(explanation(tr("%1 <i>Fix:</i> %2")
                                        .arg(QString::fromUtf8(rule.rationale).toHtmlEscaped(),
                                             QString::fromUtf8(rule.fix).toHtmlEscaped())),
                        row, 1);
        ++row;
    }

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    grid->setColumnStretch(1, 1);
    auto* content = new QWidget;
    content->setLayout(grid);
    auto* scroll = new QScrollArea;
    scroll->setWidget(content);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(scroll, 1);
    layout->addWidget(buttons);
    resize(660, 640);
}

} // namespace keylens::ui
