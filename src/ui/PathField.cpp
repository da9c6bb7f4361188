#include "ui/PathField.h"

#include <QFileDialog>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QPushButton>

namespace keylens::ui {

PathField::PathField(const QString& title, const QString& placeholder, Kind kind, QWidget* parent)
    : QWidget(parent)
    , m_edit(new QLineEdit)
{
    m_edit->setPlaceholderText(placeholder);
    auto* browse = new QPushButton(QStringLiteral("…"));
    browse->setMaximumWidth(32);
    browse->setToolTip(tr("Choose %1").arg(title.toLower()));
    connect(browse, &QPushButton::clicked, this, [this, title, kind] {
        const QString chosen = kind == Kind::Directory ? QFileDialog::getExistingDirectory(this, title, path())
                                                       : QFileDialog::getOpenFileName(this, title, path());
        if (!chosen.isEmpty())
            m_edit->setText(chosen);
    });
    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(m_edit, 1);
    row->addWidget(browse);
}

QString PathField::path() const
{
    return m_edit->text().trimmed();
}

void PathField::setPath(const QString& path)
{
    m_edit->setText(path);
}

} // namespace keylens::ui
