// SPDX-License-Identifier: GPL-3.0-or-later
// The floor for capture analysis speed: read every packet with libpcap and touch one
// byte of each, nothing more.
#include <pcap/pcap.h>

#include <cstdio>

int main(int argc, char** argv)
{
    if (argc != 2) {
        std::fprintf(stderr, "usage: windscope-pcap-floor FILE\n");
        return 2;
    }
    char errbuf[PCAP_ERRBUF_SIZE];
    pcap_t* pcap = pcap_open_offline_with_tstamp_precision(argv[1], PCAP_TSTAMP_PRECISION_NANO, errbuf);
    if (!pcap) {
        std::fprintf(stderr, "windscope-pcap-floor: %s\n", errbuf);
        return 1;
    }
    pcap_pkthdr* header;
    const u_char* data;
    unsigned long long packets = 0, bytes = 0, checksum = 0;
    while (pcap_next_ex(pcap, &header, &data) == 1) {
        ++packets;
        bytes += header->caplen;
        checksum += header->caplen ? data[header->caplen - 1] : 0;
    }
    pcap_close(pcap);
    std::printf("%llu packets %llu bytes (checksum %llu)\n", packets, bytes, checksum);
    return 0;
}
