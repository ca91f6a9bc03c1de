import { describe, expect, it } from 'vitest';
import { emailRisk, ipRisk, phoneRisk, riskScores } from '../../server/domain/riskScores';

describe('risk scores (documented rules)', () => {
  it('scores e-mail providers', () => {
    expect(emailRisk(null)).toBeNull();
    expect(emailRisk('a.b@mailinator.com')).toBe(90);
    expect(emailRisk('a.b@example.com')).toBe(70);
    expect(emailRisk('x@shop.test')).toBe(70);
    expect(emailRisk('ayse@gmail.com')).toBe(40);
    expect(emailRisk('ayse1234567@gmail.com')).toBe(60);
    expect(emailRisk('ayse@acme-bank.eu')).toBe(10);
  });

  it('scores phones against the nationality', () => {
    expect(phoneRisk(null, 'TR')).toBeNull();
    expect(phoneRisk('+90 12', 'TR')).toBe(80);
    expect(phoneRisk('0532 123 4567', 'TR')).toBe(40);
    expect(phoneRisk('+49 151 2345 6789', 'TR')).toBe(60);
    expect(phoneRisk('+90 532 123 4567', 'TR')).toBe(10);
    expect(phoneRisk('+90 532 123 4567', null)).toBe(10);
  });

  it('scores addresses', () => {
    expect(ipRisk(null)).toBeNull();
    expect(ipRisk('10.1.2.3')).toBe(50);
    expect(ipRisk('192.168.1.9')).toBe(50);
    expect(ipRisk('172.20.0.1')).toBe(50);
    expect(ipRisk('999.1.1.1')).toBe(80);
    expect(ipRisk('85.10.20.30')).toBe(10);
  });

  it('combines the three', () => {
    expect(
      riskScores({ email: 'a@gmail.com', phone: '+90 532 123 4567', nationality: 'TR', ip: '10.0.0.1' }),
    ).toEqual({
      email: 40,
      phone: 10,
      ip: 50,
    });
  });
});
