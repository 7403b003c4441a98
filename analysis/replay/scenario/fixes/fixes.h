// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The fix constructors, one per file in this directory; fix_registry.cpp lists them.
// Each takes the text after '=' (empty when none was given).

#include "analysis/replay/scenario/fix.h"

namespace windscope::analysis::replay::fixes {

using Factory = std::unique_ptr<Fix> (*)(std::string_view value, std::string& error);

std::unique_ptr<Fix> makeApZeroWindowAck(std::string_view value, std::string& error);
std::unique_ptr<Fix> makeFreezeTcp(std::string_view value, std::string& error);
std::unique_ptr<Fix> makeSnoop(std::string_view value, std::string& error);
std::unique_ptr<Fix> makeRxAppBuffer(std::string_view value, std::string& error);
std::unique_ptr<Fix> makeTxInterPacketDelay(std::string_view value, std::string& error);
std::unique_ptr<Fix> makeAmpduMax(std::string_view value, std::string& error);
std::unique_ptr<Fix> makeCc(std::string_view value, std::string& error);
std::unique_ptr<Fix> makeMaxWindow(std::string_view value, std::string& error);
std::unique_ptr<Fix> makeScanAwareAp(std::string_view value, std::string& error);
std::unique_ptr<Fix> makeScanInterval(std::string_view value, std::string& error);
std::unique_ptr<Fix> makeScanDwell(std::string_view value, std::string& error);

// Shared value parsing: a non-negative number (fractions allowed when allowFraction).
bool parseNumber(std::string_view fix, std::string_view value, bool allowFraction, double& out, std::string& error);
bool requireNoValue(std::string_view fix, std::string_view value, std::string& error);

// A fix that only rewrites the scenario, from a lambda.
template <typename Apply>
class ParameterFix final : public Fix
{
public:
    ParameterFix(std::string_view name, Apply apply) : m_name(name), m_apply(std::move(apply)) {}
    std::string_view name() const override { return m_name; }
    bool apply(Scenario& scenario, std::string& error) const override { return m_apply(scenario, error); }

private:
    std::string_view m_name;
    Apply m_apply;
};

template <typename Apply>
std::unique_ptr<Fix> parameterFix(std::string_view name, Apply apply)
{
    return std::make_unique<ParameterFix<Apply>>(name, std::move(apply));
}

} // namespace windscope::analysis::replay::fixes
