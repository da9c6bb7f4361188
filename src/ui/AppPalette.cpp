#include "ui/AppPalette.h"

#include <QApplication>
#include <QCoreApplication>
#include <QPalette>
#include <QStyle>
#include <QStyleFactory>

namespace keylens::ui {

void applyPalette(const QString& name)
{
    if (name.isEmpty())
        return; // every colour of ours is taken from the palette or translucent over it
    QApplication::setStyle(QStyleFactory::create(QCoreApplication::translate("AppPalette", "Fusion")));
    if (name == QStringLiteral("light")) {
        QApplication::setPalette(QApplication::style()->standardPalette());
        return;
    }
    const QColor text(0xe6, 0xe6, 0xe6);
    const QColor disabled(0x80, 0x80, 0x80);
    QPalette dark;
    dark.setColor(QPalette::Window, QColor(0x2b, 0x2d, 0x31));
    dark.setColor(QPalette::WindowText, text);
    dark.setColor(QPalette::Base, QColor(0x1f, 0x21, 0x24));
    dark.setColor(QPalette::AlternateBase, QColor(0x26, 0x28, 0x2c));
    dark.setColor(QPalette::Text, text);
    dark.setColor(QPalette::Button, QColor(0x33, 0x35, 0x3a));
    dark.setColor(QPalette::ButtonText, text);
    dark.setColor(QPalette::Highlight, QColor(0x3d, 0x6f, 0xb6));
    dark.setColor(QPalette::HighlightedText, Qt::white);
    dark.setColor(QPalette::ToolTipBase, QColor(0x33, 0x35, 0x3a));
    dark.setColor(QPalette::ToolTipText, text);
    dark.setColor(QPalette::PlaceholderText, QColor(0x8a, 0x8d, 0x93));
    dark.setColor(QPalette::Light, QColor(0x45, 0x47, 0x4c));
    dark.setColor(QPalette::Mid, QColor(0x3a, 0x3c, 0x41));
    dark.setColor(QPalette::Dark, QColor(0x18, 0x19, 0x1b));
    for (const QPalette::ColorRole role : {QPalette::Text, QPalette::WindowText, QPalette::ButtonText})
        dark.setColor(QPalette::Disabled, role, disabled);
    QApplication::setPalette(dark);
}

} // namespace keylens::ui
