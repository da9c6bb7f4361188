#include "ui/EditDialogs.h"

#include "edit/RenamePlan.h"
#include "keyspace/KeyEscape.h"
#include "keyspace/Units.h"
#include "usage/OptionValues.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace keylens::ui {

using keyspace::KeyType;

namespace {

std::optional<QByteArray> unescaped(const QString& text)
{
    return edit::unescapeRedisCli(text.toUtf8());
}

QDialogButtonBox* okCancel(QDialog* dialog, const QString& okText)
{
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    buttons->button(QDialogButtonBox::Ok)->setText(okText);
    QObject::connect(buttons, &QDialogButtonBox::accepted, dialog, &QDialog::accept);
    QObject::connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::reject);
    return buttons;
}

QCheckBox* escapedBox()
{
    auto* box = new QCheckBox(NewKeyDialog::tr("Escaped (\\xhh, \\n, \\\")"));
    box->setToolTip(NewKeyDialog::tr("Read the fields the way redis-cli writes binary bytes"));
    return box;
}

// Says why beside the fields, and makes the dialog as tall as its words then need: a window's layout does not grow
// it for a wrapped label's new lines (its least size ignores height for width), and three lines of "…is gone…"
// squashed the fields above them to slivers.
void sayProblem(QDialog* dialog, QLabel* problem, const QString& text)
{
    problem->setText(text);
    QLayout* layout = dialog->layout();
    if (!layout)
        return;
    layout->activate();
    const int needed =
        layout->hasHeightForWidth() ? layout->totalHeightForWidth(dialog->width()) : layout->totalSizeHint().height();
    if (dialog->height() < needed)
        dialog->resize(dialog->width(), needed);
}

// Splits "a b c" lines into the arguments of a command (redis-cli quoting), for list elements, members and fields.
std::optional<QByteArrayList> argumentsOf(const QString& text)
{
    QByteArrayList out;
    for (const QString& line : text.split(u'\n')) {
        if (line.trimmed().isEmpty())
            continue;
        const std::optional<std::vector<QByteArray>> parts = edit::splitRedisCliLine(line.toUtf8());
        if (!parts)
            return std::nullopt;
        for (const QByteArray& part : *parts)
            out << part;
    }
    return out;
}

} // namespace

BytesField::BytesField(QLineEdit* line, QCheckBox* escaped)
    : m_line(line)
    , m_escaped(escaped)
{}

void BytesField::setBytes(const QByteArray& bytes)
{
    const bool printable = keyspace::isPrintableUtf8(bytes);
    if (!printable)
        m_escaped->setChecked(true);
    m_line->setText(m_escaped->isChecked() ? QString::fromUtf8(keyspace::escapeLikeRedisCli(bytes))
                                           : QString::fromUtf8(bytes));
}

std::optional<QByteArray> BytesField::bytes() const
{
    return m_escaped->isChecked() ? unescaped(m_line->text()) : std::optional(m_line->text().toUtf8());
}

ElementDialog::ElementDialog(const QByteArray& key, KeyType type, const inspect::ValueRow* existing,
                             const inspect::ValueRow* selected, QWidget* parent)
    : QDialog(parent)
    , m_key(key)
    , m_type(type)
{
    if (existing)
        m_existing = *existing;
    if (selected)
        m_selected = *selected;
    const bool editing = existing != nullptr;
    setWindowTitle(editing ? tr("Edit element") : tr("Add element"));
    auto* form = new QFormLayout;
    m_escaped = escapedBox();
    const auto line = [&](const QString& label) {
        auto* field = new QLineEdit;
        form->addRow(label, field);
        return field;
    };
    switch (type) {
    case KeyType::Hash:
        m_first = line(tr("Field"));
        m_second = line(tr("Value"));
        m_first->setReadOnly(editing);
        break;
    case KeyType::List:
        m_second = line(tr("Element"));
        if (!editing) {
            m_position = new QComboBox;
            m_position->addItem(tr("At the end (RPUSH)"));
            if (selected) {
                m_position->addItem(tr("Before the selected element (LINSERT BEFORE)"));
                m_position->addItem(tr("After the selected element (LINSERT AFTER)"));
            }
            form->addRow(tr("Where"), m_position);
        }
        break;
    case KeyType::Set:
        m_first = line(tr("Member"));
        break;
    case KeyType::ZSet:
        m_first = line(tr("Member"));
        m_second = line(tr("Score"));
        break;
    case KeyType::Stream:
        m_first = line(tr("Entry id"));
        m_first->setText(QStringLiteral("*"));
        m_second = line(tr("Fields"));
        m_second->setPlaceholderText(tr("field value field value…"));
        break;
    default:
        break;
    }
    form->addRow(QString(), m_escaped);
    if (existing) {
        if (m_first)
            BytesField(m_first, m_escaped).setBytes(existing->first);
        if (m_second)
            BytesField(m_second, m_escaped).setBytes(existing->second);
    }
    m_problem = new QLabel;
    m_problem->setWordWrap(true);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_problem);
    QDialogButtonBox* buttons = okCancel(this, editing ? tr("Save") : tr("Add"));
    m_ok = buttons->button(QDialogButtonBox::Ok);
    layout->addWidget(buttons);
    resize(480, sizeHint().height());
}

std::optional<edit::KeyEdit> ElementDialog::change()
{
    using Kind = edit::KeyEdit::Kind;
    edit::KeyEdit change;
    change.key = m_key;
    const std::optional<QByteArray> first = m_first ? BytesField(m_first, m_escaped).bytes() : QByteArray();
    const std::optional<QByteArray> second =
        m_second && m_type != KeyType::ZSet ? BytesField(m_second, m_escaped).bytes() : QByteArray();
    if (!first || !second) {
        sayProblem(this, m_problem, tr("An escaped field does not parse: check its \\x escapes and quotes."));
        return std::nullopt;
    }
    switch (m_type) {
    case KeyType::Hash:
        change.kind = Kind::SetHashField;
        change.field = *first;
        change.value = *second;
        if (m_existing)
            change.expected = m_existing->second;
        break;
    case KeyType::List:
        change.value = *second;
        if (m_existing) {
            change.kind = Kind::SetListElement;
            change.index = m_existing->first.toLongLong();
            change.expected = m_existing->second;
        } else if (!m_position || m_position->currentIndex() == 0) {
            change.kind = Kind::AppendListElement;
        } else {
            change.kind = Kind::InsertListElement;
            change.before = m_position->currentIndex() == 1;
            change.field = m_selected->second;
        }
        break;
    case KeyType::Set:
        change.kind = m_existing ? Kind::ReplaceSetMember : Kind::AddSetMember;
        change.field = m_existing ? m_existing->first : QByteArray();
        change.value = *first;
        break;
    case KeyType::ZSet: {
        bool ok = false;
        change.score = m_second->text().trimmed().toDouble(&ok);
        if (!ok) {
            sayProblem(this, m_problem, tr("A score is a number, such as 42 or -1.5."));
            return std::nullopt;
        }
        if (m_existing && *first != m_existing->first) {
            change.kind = Kind::RenameZsetMember;
            change.field = m_existing->first;
            change.value = *first;
        } else {
            change.kind = Kind::SetZsetMember;
            change.field = *first;
        }
        if (m_existing)
            change.expected = m_existing->second;
        break;
    }
    case KeyType::Stream: {
        const std::optional<QByteArrayList> fields = argumentsOf(m_second->text());
        if (!fields || fields->isEmpty() || fields->size() % 2 != 0) {
            sayProblem(this, m_problem, tr("A stream entry needs fields and values in pairs: field value …"));
            return std::nullopt;
        }
        change.kind = Kind::AddStreamEntry;
        change.field = *first;
        change.fields = *fields;
        break;
    }
    default:
        return std::nullopt;
    }
    return change;
}

void ElementDialog::accept()
{
    if (m_waiting)
        return;
    const std::optional<edit::KeyEdit> edit = change();
    if (!edit)
        return;
    if (!m_send) {
        QDialog::accept();
        return;
    }
    // Closed only once it is written: a refusal (the field exists already, OOM, NOPERM) leaves what was typed here.
    m_waiting = true;
    m_ok->setEnabled(false);
    sayProblem(this, m_problem, tr("Writing…"));
    m_send(*edit);
}

void ElementDialog::setSend(std::function<void(const edit::KeyEdit&)> send)
{
    m_send = std::move(send);
}

void ElementDialog::written()
{
    m_waiting = false;
    QDialog::accept();
}

void ElementDialog::refused(const QString& why, bool again)
{
    m_waiting = false;
    sayProblem(this, m_problem, why);
    m_ok->setEnabled(again);
    if (!again)
        m_ok->setToolTip(tr("The key is gone from the server: nothing can be written in it"));
}

QString ElementDialog::problem() const
{
    return m_problem->text();
}

KeyNameDialog::KeyNameDialog(const QString& title, const QByteArray& key, int database, QWidget* parent)
    : QDialog(parent)
{
    setWindowTitle(title);
    m_name = new QLineEdit;
    m_escaped = escapedBox();
    BytesField(m_name, m_escaped).setBytes(key);
    m_database = new QSpinBox;
    m_database->setRange(0, 15);
    m_database->setValue(database);
    m_database->setToolTip(tr("Another database: COPY there, then DEL here, at once (Redis 6.2+)"));
    auto* form = new QFormLayout;
    form->addRow(tr("New name"), m_name);
    form->addRow(QString(), m_escaped);
    form->addRow(tr("Database"), m_database);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(okCancel(this, title));
    resize(520, sizeHint().height());
}

std::optional<QByteArray> KeyNameDialog::name() const
{
    return BytesField(m_name, m_escaped).bytes();
}

int KeyNameDialog::database() const
{
    return m_database->value();
}

NewKeyDialog::NewKeyDialog(const QByteArray& prefix, QWidget* parent)
    : QDialog(parent)
{
    setWindowTitle(tr("New key"));
    m_name = new QLineEdit;
    m_escaped = escapedBox();
    BytesField(m_name, m_escaped).setBytes(prefix);
    m_type = new QComboBox;
    for (const KeyType type :
         {KeyType::String, KeyType::Hash, KeyType::List, KeyType::Set, KeyType::ZSet, KeyType::Stream})
        m_type->addItem(QString::fromLatin1(keyspace::keyTypeName(type)), int(type));
    m_ttl = new QLineEdit;
    m_ttl->setPlaceholderText(tr("none, or 90, 15m, 2h, 7d"));
    m_value = new QPlainTextEdit;
    m_hint = new QLabel;
    m_hint->setWordWrap(true);
    m_problem = new QLabel;
    m_problem->setWordWrap(true);
    auto* form = new QFormLayout;
    form->addRow(tr("Name"), m_name);
    form->addRow(QString(), m_escaped);
    form->addRow(tr("Type"), m_type);
    form->addRow(QStringLiteral("TTL"), m_ttl);
    form->addRow(tr("Value"), m_value);
    form->addRow(QString(), m_hint);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_problem);
    layout->addWidget(okCancel(this, tr("Create")));
    connect(m_type, &QComboBox::currentIndexChanged, this, &NewKeyDialog::explainType);
    explainType();
    resize(560, 420);
}

void NewKeyDialog::explainType()
{
    switch (KeyType(m_type->currentData().toInt())) {
    case KeyType::String:
        m_hint->setText(tr("The value as it is (escaped when the box is ticked)."));
        break;
    case KeyType::Hash:
        m_hint->setText(tr("field value pairs, one per line; quote values with spaces: name \"Ada L\""));
        break;
    case KeyType::List:
    case KeyType::Set:
        m_hint->setText(tr("The elements, separated by spaces or lines; quote one with spaces."));
        break;
    case KeyType::ZSet:
        m_hint->setText(tr("score member pairs: 1 alice 2.5 bob"));
        break;
    case KeyType::Stream:
        m_hint->setText(tr("The first entry's field value pairs (the server picks its id)."));
        break;
    default:
        break;
    }
}

std::optional<edit::KeyEdit> NewKeyDialog::change()
{
    edit::KeyEdit change;
    change.kind = edit::KeyEdit::Kind::CreateKey;
    change.type = KeyType(m_type->currentData().toInt());
    const std::optional<QByteArray> name = BytesField(m_name, m_escaped).bytes();
    if (!name || name->isEmpty()) {
        sayProblem(this, m_problem, tr("Name the key."));
        return std::nullopt;
    }
    change.key = *name;
    if (!m_ttl->text().trimmed().isEmpty() && m_ttl->text().trimmed() != QLatin1String("none")) {
        const std::optional<std::int64_t> ttl = usage::parseDuration(m_ttl->text().toUtf8());
        if (!ttl || *ttl <= 0) {
            sayProblem(this, m_problem, tr("A TTL is a duration such as 90, 15m, 2h or 7d."));
            return std::nullopt;
        }
        change.ttlMs = *ttl;
    }
    if (change.type == KeyType::String) {
        const std::optional<QByteArray> value =
            m_escaped->isChecked() ? unescaped(m_value->toPlainText()) : m_value->toPlainText().toUtf8();
        if (!value) {
            sayProblem(this, m_problem, tr("The escaped value does not parse."));
            return std::nullopt;
        }
        change.value = *value;
        return change;
    }
    const std::optional<QByteArrayList> fields = argumentsOf(m_value->toPlainText());
    const bool pairs = change.type == KeyType::Hash || change.type == KeyType::ZSet || change.type == KeyType::Stream;
    if (!fields || fields->isEmpty() || (pairs && fields->size() % 2 != 0)) {
        sayProblem(this, m_problem,
                   pairs ? tr("Give the value as pairs, as the hint says.") : tr("Give at least one element."));
        return std::nullopt;
    }
    change.fields = *fields;
    return change;
}

void NewKeyDialog::accept()
{
    if (change())
        QDialog::accept();
}

} // namespace keylens::ui
