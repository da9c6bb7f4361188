#include "ui/ProfileDialog.h"

#include "keyspace/KeyEscape.h"
#include "keyspace/Units.h"
#include "models/DisplayText.h"
#include "models/MonitorRunner.h"

#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSpinBox>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace keylens::ui {

using models::displayText;

ProfileDialog::ProfileDialog(const redis::ConnectionOptions& options, keyspace::Delimiters delimiters, bool production,
                             QWidget* parent)
    : QDialog(parent)
    , m_options(options)
    , m_delimiters(std::move(delimiters))
    , m_production(production)
    , m_runner(new models::MonitorRunner(this))
    , m_seconds(new QSpinBox)
    , m_start(new QPushButton(tr("Start")))
    , m_cancel(new QPushButton(tr("Cancel")))
    , m_summary(new QLabel)
    , m_results(new QTreeWidget)
{
    setWindowTitle(tr("Profile — which patterns the application uses"));
    auto* about = new QLabel(tr("Samples MONITOR: every command the clients send, grouped by key pattern. MONITOR "
                                "costs the server about half its throughput while it runs, so the sample is short "
                                "(60 s at most) and stops on Cancel. Values and passwords are never kept."));
    about->setWordWrap(true);
    m_seconds->setRange(1, live::MaximumMonitorSeconds);
    m_seconds->setValue(10);
    m_seconds->setSuffix(tr(" s"));
    m_cancel->setEnabled(false);
    m_summary->setWordWrap(true);
    m_results->setHeaderLabels({tr("Pattern / key"), tr("Calls/s"), tr("Reads"), tr("Writes"), tr("Commands")});
    m_results->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_results->setRootIsDecorated(true);
    auto* bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("Sample for")));
    bar->addWidget(m_seconds);
    bar->addWidget(m_start);
    bar->addWidget(m_cancel);
    bar->addStretch(1);
    auto* close = new QDialogButtonBox(QDialogButtonBox::Close);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(about);
    layout->addLayout(bar);
    layout->addWidget(m_summary);
    layout->addWidget(m_results, 1);
    layout->addWidget(close);
    resize(760, 520);

    connect(close, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_start, &QPushButton::clicked, this, &ProfileDialog::start);
    connect(m_cancel, &QPushButton::clicked, m_runner, &models::MonitorRunner::cancel);
    connect(m_runner, &models::MonitorRunner::finished, this,
            [this](const std::shared_ptr<const live::MonitorSample>& sample) { showSample(*sample); });
    m_tick.setInterval(250);
    connect(&m_tick, &QTimer::timeout, this, [this] {
        m_summary->setText(tr("Sampling… %1 s of %2").arg(m_clock.elapsed() / 1000).arg(m_seconds->value()));
    });
}

void ProfileDialog::start()
{
    if (m_production &&
        QMessageBox::warning(this, tr("Profile a production server?"),
                             tr("This connection is tagged production. MONITOR halves its throughput for %1 s. "
                                "Run it anyway?")
                                 .arg(m_seconds->value()),
                             QMessageBox::Yes | QMessageBox::No, QMessageBox::No) != QMessageBox::Yes)
        return;
    m_start->setEnabled(false);
    m_seconds->setEnabled(false);
    m_cancel->setEnabled(true);
    m_results->clear();
    m_clock.start();
    m_tick.start();
    m_runner->start(m_options, m_delimiters, m_seconds->value());
}

void ProfileDialog::showSample(const live::MonitorSample& sample)
{
    m_tick.stop();
    m_start->setEnabled(true);
    m_seconds->setEnabled(true);
    m_cancel->setEnabled(false);
    if (!sample.started) {
        m_summary->setText(tr("MONITOR could not run: %1").arg(sample.error ? sample.error->message : QString()));
        return;
    }
    const auto ops = [this](std::optional<double> value) {
        return value ? tr("%1 ops/s").arg(displayText(keyspace::formatCount(std::uint64_t(*value)))) : tr("unknown");
    };
    const live::MonitorProfile& profile = *sample.profile;
    QString text = tr("%1 commands in %2 s. What it cost: the server ran %3 before, %4 during.")
                       .arg(displayText(keyspace::formatCount(profile.calls())))
                       .arg(sample.seconds, 0, 'f', 1)
                       .arg(ops(sample.opsBefore), ops(sample.opsDuring));
    if (sample.error)
        text += u' ' + tr("The sample ended early: %1").arg(sample.error->message);
    m_summary->setText(text);
    const auto rate = [&](std::uint64_t calls) {
        return QString::number(sample.seconds > 0 ? double(calls) / sample.seconds : 0.0, 'f', 1);
    };
    for (const live::MonitorProfile::Pattern& pattern : profile.patterns()) {
        QStringList commands;
        for (const live::MonitorProfile::CommandCalls& command : pattern.commands)
            commands << QString::fromLatin1(command.command) + u' ' + displayText(keyspace::formatCount(command.calls));
        auto* row = new QTreeWidgetItem(
            m_results, {displayText(keyspace::displayBytes(pattern.pattern)), rate(pattern.calls),
                        displayText(keyspace::formatCount(pattern.reads)),
                        displayText(keyspace::formatCount(pattern.writes)), commands.join(QStringLiteral(", "))});
        for (int column = 1; column < 4; ++column)
            row->setTextAlignment(column, Qt::AlignRight | Qt::AlignVCenter);
        for (const live::MonitorProfile::KeyCalls& key : pattern.topKeys) {
            auto* child = new QTreeWidgetItem(row, {displayText(keyspace::displayBytes(key.key)), rate(key.calls)});
            child->setTextAlignment(1, Qt::AlignRight | Qt::AlignVCenter);
        }
    }
    Q_EMIT sampled();
}

} // namespace keylens::ui
